/* jacobi-1d: 3-point Jacobi smoothing of a 1D array of N points for TSTEPS steps, ping-ponging between A and B. */
#include "polybench_lite.h"

#if defined(MINI_DATASET)
# define TSTEPS_DEFAULT 4
# define N_DEFAULT 11
#elif defined(SMALL_DATASET)
# define TSTEPS_DEFAULT 20
# define N_DEFAULT 120
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

static void init_array(int n, DATA_TYPE POLYBENCH_1D(A, N, n),
                       DATA_TYPE POLYBENCH_1D(B, N, n))
{
  int i;

  for (i = 0; i < n; i++) {
    A[i] = (DATA_TYPE)((i * 7 + 3) % n) / n;
    B[i] = (DATA_TYPE)((i * i + 5) % n) / n;
  }
}

static void print_array(int n, DATA_TYPE POLYBENCH_1D(A, N, n),
                        DATA_TYPE POLYBENCH_1D(B, N, n))
{
  int i;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("A");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(POLYBENCH_DUMP_TARGET, "\n");
    fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i]);
  }
  POLYBENCH_DUMP_END("A");
  POLYBENCH_DUMP_BEGIN("B");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(POLYBENCH_DUMP_TARGET, "\n");
    fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, B[i]);
  }
  POLYBENCH_DUMP_END("B");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_jacobi_1d(int tsteps, int n,
                             DATA_TYPE POLYBENCH_1D(A, N, n),
                             DATA_TYPE POLYBENCH_1D(B, N, n))
{
  int t, i;

#pragma scop
  for (t = 0; t < _PB_TSTEPS; t++) {
    for (i = 1; i < _PB_N - 1; i++)
      B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
    for (i = 1; i < _PB_N - 1; i++)
      A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int tsteps = TSTEPS;
  int n = N;
  POLYBENCH_1D_ARRAY_DECL(A, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(B, DATA_TYPE, N, n);

  (void)argc;
  (void)argv;
  init_array(n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_start_instruments;
  kernel_jacobi_1d(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_stop_instruments;
  print_array(n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  return 0;
}
