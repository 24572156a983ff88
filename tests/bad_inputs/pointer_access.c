/* Accesses through a pointer. */
void kernel(int n, double *p, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = *p + 1.0;
#pragma endscop
}
