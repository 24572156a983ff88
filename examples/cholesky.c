/* cholesky: in-place Cholesky factorisation A = L*L^T of a symmetric positive definite N x N matrix. */
#include "polybench_lite.h"

#if defined(MINI_DATASET)
# define N_DEFAULT 11
#elif defined(SMALL_DATASET)
# define N_DEFAULT 120
#else
# define N_DEFAULT 2000
#endif
#ifndef N
# define N N_DEFAULT
#endif
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

static void init_array(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j;

  /* Symmetric, off-diagonal entries in [0, 1), diagonal n + 1 + (i % 4):
   * strictly diagonally dominant with a positive diagonal, hence SPD. */
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      A[i][j] = (DATA_TYPE)((i * j + 2 * (i + j) + 1) % n) / n;
      A[j][i] = A[i][j];
    }
    A[i][i] = (DATA_TYPE)(n + 1 + i % 4);
  }
}

static void print_array(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("A");
  /* The factor L is the lower triangle; the strict upper triangle is left untouched. */
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i][j]);
    }
  POLYBENCH_DUMP_END("A");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_cholesky(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_N; i++) {
    /* j < i: off-diagonal entries of row i */
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[j][k];
      A[i][j] /= A[j][j];
    }
    /* j == i: diagonal entry */
    for (k = 0; k < i; k++)
      A[i][i] -= A[i][k] * A[i][k];
    A[i][i] = SQRT_FUN(A[i][i]);
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);

  (void)argc;
  (void)argv;
  init_array(n, POLYBENCH_ARRAY(A));
  polybench_start_instruments;
  kernel_cholesky(n, POLYBENCH_ARRAY(A));
  polybench_stop_instruments;
  print_array(n, POLYBENCH_ARRAY(A));
  POLYBENCH_FREE_ARRAY(A);
  return 0;
}
