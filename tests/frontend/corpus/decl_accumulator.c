/* expect: optimized. An accumulator declared in the outer loop body (a row sum, matrix-vector). */
#include <stdio.h>
#define N 150
#define M 130
double A[N][M], x[M], y[N];
int main(void)
{
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      A[i][j] = ((i + 2 * j) % 11) * 0.5;
  for (j = 0; j < M; j++)
    x[j] = (j % 5) + 1;
#pragma scop
  for (i = 0; i < N; i++) {
    double s = 0.0;
    for (j = 0; j < M; j++)
      s += A[i][j] * x[j];
    y[i] = s;
  }
#pragma endscop
  for (i = 0; i < N; i += 13)
    printf("%d %.6f\n", i, y[i]);
  return 0;
}
