/* expect: optimized. The inner loop's iterator is declared in the region (it needs no value after it). */
#include <stdio.h>
#define N 90
double A[N][N], B[N][N];
int main(void)
{
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (i * j) % 13;
#pragma scop
  for (i = 1; i < N; i++) {
    int k;
    for (k = 0; k < N; k++)
      B[i][k] = A[i - 1][k] + A[i][k];
  }
#pragma endscop
  double sum = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      sum += B[i][j] * (j % 3);
  printf("%.6f\n", sum);
  return 0;
}
