/* A loop bound that multiplies two variables. */
void kernel(int n, double a[n][n])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < i * i; j++)
      a[i][j % n] = 0;
#pragma endscop
}
