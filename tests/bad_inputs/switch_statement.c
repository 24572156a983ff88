/* A switch is not an affine condition. */
void kernel(int n, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    switch (i) {
    case 0:
      a[i] = 1;
      break;
    default:
      a[i] = 2;
    }
#pragma endscop
}
