/* A product of two iterators in a subscript. */
void kernel(int n, double a[n * n])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      a[i * j] = 1.0;
#pragma endscop
}
