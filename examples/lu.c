/* lu: in-place LU decomposition A = L*U without pivoting (L unit lower, U upper), A of size N x N. */
#include "polybench_lite.h"

#if defined(MINI_DATASET)
# define N_DEFAULT 9
#elif defined(SMALL_DATASET)
# define N_DEFAULT 120
#else
# define N_DEFAULT 2000
#endif
#ifndef N
# define N N_DEFAULT
#endif
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

/* Off-diagonal entries lie in [-0.5, 0.5) and the diagonal exceeds (n-1)/2,
 * so A is strictly diagonally dominant and needs no pivoting. */
static void init_array(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = (DATA_TYPE)((i * 5 + j * 3 + 2) % n - n / 2) / n;
  for (i = 0; i < n; i++)
    A[i][i] = (DATA_TYPE)(n / 2 + 1 + i % 3);
}

static void print_array(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("A");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i][j]);
    }
  POLYBENCH_DUMP_END("A");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_lu(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_N; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (j = i; j < _PB_N; j++) {
      for (k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
    }
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
  kernel_lu(n, POLYBENCH_ARRAY(A));
  polybench_stop_instruments;
  print_array(n, POLYBENCH_ARRAY(A));
  POLYBENCH_FREE_ARRAY(A);
  return 0;
}
