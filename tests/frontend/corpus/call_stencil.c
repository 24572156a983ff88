/* expect: optimized */
/* A time-iterated 2-D stencil whose point update is a call: the order between time steps stays. */
#include <stdio.h>

#define N 30
#define T 6

static double A[N][N], B[N][N];

void relax(double P[N][N], double Q[N][N], int i, int j)
{
  Q[i][j] = 0.2 * (P[i][j] + P[i - 1][j] + P[i + 1][j] + P[i][j - 1] + P[i][j + 1]);
}

int main(void)
{
  int t, i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = B[i][j] = (double) ((i * 3 + j) % 10);
#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        relax(A, B, i, j);
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma endscop
  for (i = 1; i < N - 1; i += 4)
    printf("%.6f\n", A[i][N / 2]);
  return 0;
}
