/* A second '#pragma scop' before the first region is closed. */
void kernel(int n, double a[n], double b[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = 0;
#pragma scop
  for (i = 0; i < n; i++)
    b[i] = a[i];
#pragma endscop
}
