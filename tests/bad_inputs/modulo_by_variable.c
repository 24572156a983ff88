/* A remainder by a parameter is not affine. */
void kernel(int n, int m, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i % m] = a[i % m] + 1;
#pragma endscop
}
