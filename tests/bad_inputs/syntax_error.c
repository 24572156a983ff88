/* A C syntax error inside a region: polyopt stops with exit 1. */
void kernel(int n, double a[n], double b[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = b[i] + ;
#pragma endscop
}
