/* A subscript coefficient of 2^62. */
void kernel(int n, double a[n])
{
  long i;
#pragma scop
  for (i = 0; i < n; i++)
    a[4611686018427387904 * i - 4611686018427387904 * i + i] = 1;
#pragma endscop
}
