/* expect: optimized */
/* axpy_at(A[i], x, j, alpha): a callee updating one element of a row passed as A[i]. */
#include <stdio.h>

#define N 64

static double A[N][N], x[N], y[N];

void axpy_at(double *row, const double *v, int j, double alpha)
{
  row[j] = row[j] + alpha * v[j];
}

int main(void)
{
  int i, j;
  for (i = 0; i < N; i++) {
    x[i] = (double) (i % 9);
    for (j = 0; j < N; j++)
      A[i][j] = (double) ((i * j) % 7);
  }
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      axpy_at(A[i], x, j, 0.5);
  for (i = 0; i < N; i++) {
    y[i] = 0.0;
    for (j = 0; j < N; j++)
      y[i] += A[i][j];
  }
#pragma endscop
  for (i = 0; i < N; i += 9)
    printf("%.6f %.6f\n", A[i][N - 1], y[i]);
  return 0;
}
