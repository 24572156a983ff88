/* A loop with an empty body next to a statement. */
void kernel(int n, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    ;
  a[0] = 1;
#pragma endscop
}
