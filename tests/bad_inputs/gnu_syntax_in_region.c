/* GCC's 'x ?: y' inside a region: pycparser cannot read it, gcc accepts the file, so only the region is kept. */
void kernel(int n, double a[n], double b[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = b[i] ?: 1.0;
#pragma endscop
}
