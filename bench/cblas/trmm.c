/* Reference for the benchmark: trmm computed by direct CBLAS calls (link with -lopenblas). */
/* trmm: B := alpha*A^T*B, with A unit lower triangular M x M (diagonal implied) and B M x N. */
#include <cblas.h>
#include "polybench_lite.h"

#if defined(MINI_DATASET)
# define M_DEFAULT 8
# define N_DEFAULT 5
#elif defined(SMALL_DATASET)
# define M_DEFAULT 80
# define N_DEFAULT 60
#else
# define M_DEFAULT 1000
# define N_DEFAULT 1200
#endif
#ifndef M
# define M M_DEFAULT
#endif
#ifndef N
# define N N_DEFAULT
#endif
#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

static void init_array(int m, int n, DATA_TYPE *alpha,
                       DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                       DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
  int i, j;

  *alpha = 1.5;
  /* Only the strictly lower triangle of A is read. */
  for (i = 0; i < m; i++) {
    for (j = 0; j < i; j++)
      A[i][j] = (DATA_TYPE)((i * (j + 2) + 1) % m) / m;
    A[i][i] = 1;
    for (j = i + 1; j < m; j++)
      A[i][j] = -1;
  }
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      B[i][j] = (DATA_TYPE)(((i + 1) * (j + 3) + 2) % n) / n;
}

static void print_array(int m, int n, DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("B");
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      if ((i * m + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, B[i][j]);
    }
  POLYBENCH_DUMP_END("B");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_trmm(int m, int n, DATA_TYPE alpha,
                        DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                        DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
  cblas_dtrmm(CblasRowMajor, CblasLeft, CblasLower, CblasTrans, CblasUnit, m, n, alpha, &A[0][0], (int)(sizeof(A[0]) / sizeof(A[0][0])), &B[0][0], (int)(sizeof(B[0]) / sizeof(B[0][0])));
}

int main(int argc, char **argv)
{
  int m = M;
  int n = N;
  DATA_TYPE alpha;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, M, M, m, m);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, M, N, m, n);

  (void)argc;
  (void)argv;
  init_array(m, n, &alpha, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_start_instruments;
  kernel_trmm(m, n, alpha, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_stop_instruments;
  print_array(m, n, POLYBENCH_ARRAY(B));
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  return 0;
}
