/* The inner bound reads an array: the region is kept as written. */
void kernel(int n, int len[n], double a[n][n])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < len[i]; j++)
      a[i][j] = 0;
#pragma endscop
}
