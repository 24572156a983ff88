/* A call used as a statement may have side effects. */
void touch(double *x);

void kernel(int n, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    touch(&a[i]);
#pragma endscop
}
