/* Reference for the benchmark: symm computed by direct CBLAS calls (link with -lopenblas). */
/* symm: C := alpha*A*B + beta*C, with A symmetric M x M (lower triangle stored) and B, C M x N. */
#include <cblas.h>
#include "polybench_lite.h"

#if defined(MINI_DATASET)
# define M_DEFAULT 7
# define N_DEFAULT 10
#elif defined(SMALL_DATASET)
# define M_DEFAULT 60
# define N_DEFAULT 70
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

static void init_array(int m, int n, DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE POLYBENCH_2D(C, M, N, m, n),
                       DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                       DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
  int i, j;

  *alpha = 1.5;
  *beta = 1.2;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      C[i][j] = (DATA_TYPE)((i * (j + 1) + 2) % n) / n;
      B[i][j] = (DATA_TYPE)(((i + 3) * j + 1) % m) / m;
    }
  /* Only the lower triangle of A is read; the upper one holds a marker value. */
  for (i = 0; i < m; i++)
    for (j = 0; j < m; j++)
      A[i][j] = j <= i ? (DATA_TYPE)((i * j + i + 2 * j + 1) % m) / m : -1;
}

static void print_array(int m, int n, DATA_TYPE POLYBENCH_2D(C, M, N, m, n))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("C");
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      if ((i * m + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, C[i][j]);
    }
  POLYBENCH_DUMP_END("C");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_symm(int m, int n, DATA_TYPE alpha, DATA_TYPE beta,
                        DATA_TYPE POLYBENCH_2D(C, M, N, m, n),
                        DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                        DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
  cblas_dsymm(CblasRowMajor, CblasLeft, CblasLower, m, n, alpha, &A[0][0], (int)(sizeof(A[0]) / sizeof(A[0][0])), &B[0][0], (int)(sizeof(B[0]) / sizeof(B[0][0])), beta, &C[0][0], (int)(sizeof(C[0]) / sizeof(C[0][0])));
}

int main(int argc, char **argv)
{
  int m = M;
  int n = N;
  DATA_TYPE alpha;
  DATA_TYPE beta;
  POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, M, N, m, n);
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, M, M, m, m);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, M, N, m, n);

  (void)argc;
  (void)argv;
  init_array(m, n, &alpha, &beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_start_instruments;
  kernel_symm(m, n, alpha, beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_stop_instruments;
  print_array(m, n, POLYBENCH_ARRAY(C));
  POLYBENCH_FREE_ARRAY(C);
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  return 0;
}
