/* A polyopt pragma other than dead(...): an error, nothing is written. */
void kernel(int n, double a[n], double t[n])
{
#pragma scop
#pragma polyopt private(t)
  for (int i = 0; i < n; i++)
    a[i] = t[i];
#pragma endscop
}
