/* The step is a parameter, not a constant. */
void kernel(int n, int s, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i += s)
    a[i] = 0;
#pragma endscop
}
