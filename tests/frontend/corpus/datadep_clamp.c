/* expect: optimized */
/* A clamp that rewrites the element its condition reads, inside a 2-D nest, then a product. */
#include <stdio.h>

#define N 48

static double A[N][N], B[N][N], C[N][N];

int main(void)
{
  int i, j, k;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = (double) ((i * 3 + j * 5) % 13) - 6.0;
      B[i][j] = (double) ((i + j) % 3);
    }
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      if (A[i][j] < 0)
        A[i][j] = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      C[i][j] = 0.0;
      for (k = 0; k < N; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
#pragma endscop
  for (i = 0; i < N; i += 5)
    printf("%.6f %.6f\n", A[i][i], C[i][N - 1 - i]);
  return 0;
}
