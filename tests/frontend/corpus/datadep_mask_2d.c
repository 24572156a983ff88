/* expect: optimized */
/* A masked 2-D update next to a matrix product on other arrays (a library call candidate). */
#include <stdio.h>

#define N 40

static int mask[N][N];
static double A[N][N], B[N][N], C[N][N], D[N][N], E[N][N];

int main(void)
{
  int i, j, k;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      mask[i][j] = (i * j) % 3 == 0;
      A[i][j] = (double) ((i + j) % 5);
      B[i][j] = (double) ((i * j) % 4);
      C[i][j] = 0.0;
      D[i][j] = 1.0;
      E[i][j] = (double) (i - j);
    }
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        C[i][j] += A[i][k] * B[k][j];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      if (mask[i][j])
        D[i][j] = E[i][j] * 2.0 + D[i][j];
#pragma endscop
  for (i = 0; i < N; i += 6)
    printf("%.6f %.6f\n", C[i][i], D[i][N - 1 - i]);
  return 0;
}
