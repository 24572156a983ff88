/* A '}' without its '{' inside the region is a syntax error. */
void kernel(int n, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = 0; }
#pragma endscop
}
