/* trisolv: solve the lower-triangular system L*x = b by forward substitution, L of size N x N. */
#include "polybench_lite.h"

#if defined(MINI_DATASET)
# define N_DEFAULT 7
#elif defined(SMALL_DATASET)
# define N_DEFAULT 120
#else
# define N_DEFAULT 2000
#endif
#ifndef N
# define N N_DEFAULT
#endif
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

/* The diagonal of L is at least n/2 + 1, larger than the sum of the
 * magnitudes of the other entries of its row, so x stays bounded. */
static void init_array(int n, DATA_TYPE POLYBENCH_2D(L, N, N, n, n),
                       DATA_TYPE POLYBENCH_1D(x, N, n),
                       DATA_TYPE POLYBENCH_1D(b, N, n))
{
  int i, j;

  for (i = 0; i < n; i++) {
    x[i] = 0;
    b[i] = (DATA_TYPE)((i * 13 + 5) % 17) - 8;
    for (j = 0; j < n; j++)
      L[i][j] = j <= i ? (DATA_TYPE)((i * 3 + j * 7 + 1) % n - n / 2) / n : 0;
    L[i][i] = (DATA_TYPE)(n / 2 + 1 + i % 5);
  }
}

static void print_array(int n, DATA_TYPE POLYBENCH_1D(x, N, n))
{
  int i;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("x");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(POLYBENCH_DUMP_TARGET, "\n");
    fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, x[i]);
  }
  POLYBENCH_DUMP_END("x");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_trisolv(int n, DATA_TYPE POLYBENCH_2D(L, N, N, n, n),
                           DATA_TYPE POLYBENCH_1D(x, N, n),
                           DATA_TYPE POLYBENCH_1D(b, N, n))
{
  int i, j;

#pragma scop
  for (i = 0; i < _PB_N; i++) {
    x[i] = b[i];
    for (j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(L, DATA_TYPE, N, N, n, n);
  POLYBENCH_1D_ARRAY_DECL(x, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(b, DATA_TYPE, N, n);

  (void)argc;
  (void)argv;
  init_array(n, POLYBENCH_ARRAY(L), POLYBENCH_ARRAY(x), POLYBENCH_ARRAY(b));
  polybench_start_instruments;
  kernel_trisolv(n, POLYBENCH_ARRAY(L), POLYBENCH_ARRAY(x), POLYBENCH_ARRAY(b));
  polybench_stop_instruments;
  print_array(n, POLYBENCH_ARRAY(x));
  POLYBENCH_FREE_ARRAY(L);
  POLYBENCH_FREE_ARRAY(x);
  POLYBENCH_FREE_ARRAY(b);
  return 0;
}
