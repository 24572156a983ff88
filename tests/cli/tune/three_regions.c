/* Three regions for polyopt tune: a matrix product (tiling and parallel loops pay off), a prefix sum
   (a chain of dependences: nothing to gain, so it should stay as written) and a time-iterated stencil. */
#include <stdio.h>

#ifndef N
# define N 300
#endif
#ifndef T
# define T 40
#endif

static double A[N][N], B[N][N], C[N][N], P[N * N], U[N][N], V[N][N];

static void init(void)
{
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = (double)((i * j + 1) % N) / N;
      B[i][j] = (double)((i + 2 * j) % N) / N;
      C[i][j] = 0.0;
      U[i][j] = (double)((i * (j + 3)) % 7) / 7;
      V[i][j] = 0.0;
      P[i * N + j] = (double)((i + j) % 5) / 5;
    }
}

static void product(void)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}

static void prefix(void)
{
  int i;
#pragma scop
  for (i = 1; i < N * N; i++)
    P[i] = P[i - 1] * 0.5 + P[i];
#pragma endscop
}

static void smooth(void)
{
  int t, i, j;
#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        V[i][j] = 0.2 * (U[i][j] + U[i - 1][j] + U[i + 1][j] + U[i][j - 1] + U[i][j + 1]);
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        U[i][j] = V[i][j];
  }
#pragma endscop
}

int main(void)
{
  int i, j;
  double sum_c = 0, sum_p = 0, sum_u = 0;
  init();
  product();
  prefix();
  smooth();
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      sum_c += C[i][j] * (1 + (i + j) % 3);
      sum_p += P[i * N + j] * (1 + i % 2);
      sum_u += U[i][j] * (1 + j % 5);
    }
  printf("%.10e %.10e %.10e\n", sum_c, sum_p, sum_u);
  return 0;
}
