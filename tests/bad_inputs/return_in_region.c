/* A return leaves the region early. */
void kernel(int n, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    if (i > 5)
      return;
    a[i] = 0;
  }
#pragma endscop
}
