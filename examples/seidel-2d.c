/* seidel-2d: in-place 9-point Gauss-Seidel smoothing of an N x N grid for TSTEPS sweeps. */
#include "polybench_lite.h"

#if defined(MINI_DATASET)
# define TSTEPS_DEFAULT 2
# define N_DEFAULT 7
#elif defined(SMALL_DATASET)
# define TSTEPS_DEFAULT 10
# define N_DEFAULT 100
#else
# define TSTEPS_DEFAULT 500
# define N_DEFAULT 2000
#endif
#ifndef TSTEPS
# define TSTEPS TSTEPS_DEFAULT
#endif
#ifndef N
# define N N_DEFAULT
#endif
#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS, tsteps)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

static void init_array(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = (DATA_TYPE)((i * i + 3 * j + i * j + 2) % n) * 2 / n;
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

static void kernel_seidel_2d(int tsteps, int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int t, i, j;

#pragma scop
  for (t = 0; t <= _PB_TSTEPS - 1; t++)
    for (i = 1; i <= _PB_N - 2; i++)
      for (j = 1; j <= _PB_N - 2; j++)
        A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]
                   + A[i][j - 1] + A[i][j] + A[i][j + 1]
                   + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / SCALAR_VAL(9.0);
#pragma endscop
}

int main(int argc, char **argv)
{
  int tsteps = TSTEPS;
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);

  (void)argc;
  (void)argv;
  init_array(n, POLYBENCH_ARRAY(A));
  polybench_start_instruments;
  kernel_seidel_2d(tsteps, n, POLYBENCH_ARRAY(A));
  polybench_stop_instruments;
  print_array(n, POLYBENCH_ARRAY(A));
  POLYBENCH_FREE_ARRAY(A);
  return 0;
}
