/* Reference for the benchmark: syr2k computed by direct CBLAS calls (link with -lopenblas). */
/* syr2k: C := alpha*A*B^T + alpha*B*A^T + beta*C on the lower triangle of the N x N matrix C. */
#include <cblas.h>
#include "polybench_lite.h"

#if defined(MINI_DATASET)
# define M_DEFAULT 9
# define N_DEFAULT 5
#elif defined(SMALL_DATASET)
# define M_DEFAULT 70
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

static void init_array(int n, int m, DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE POLYBENCH_2D(C, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(A, N, M, n, m),
                       DATA_TYPE POLYBENCH_2D(B, N, M, n, m))
{
  int i, j;

  *alpha = 1.5;
  *beta = 1.2;
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      A[i][j] = (DATA_TYPE)((i * (j + 2) + 1) % n) / n;
      B[i][j] = (DATA_TYPE)(((i + 1) * j + 3) % m) / m;
    }
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      C[i][j] = (DATA_TYPE)((i * (j + 3) + 2) % m) / m;
}

static void print_array(int n, DATA_TYPE POLYBENCH_2D(C, N, N, n, n))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("C");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, C[i][j]);
    }
  POLYBENCH_DUMP_END("C");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_syr2k(int n, int m, DATA_TYPE alpha, DATA_TYPE beta,
                         DATA_TYPE POLYBENCH_2D(C, N, N, n, n),
                         DATA_TYPE POLYBENCH_2D(A, N, M, n, m),
                         DATA_TYPE POLYBENCH_2D(B, N, M, n, m))
{
  cblas_dsyr2k(CblasRowMajor, CblasLower, CblasNoTrans, n, m, alpha, &A[0][0], (int)(sizeof(A[0]) / sizeof(A[0][0])), &B[0][0], (int)(sizeof(B[0]) / sizeof(B[0][0])), beta, &C[0][0], (int)(sizeof(C[0]) / sizeof(C[0][0])));
}

int main(int argc, char **argv)
{
  int n = N;
  int m = M;
  DATA_TYPE alpha;
  DATA_TYPE beta;
  POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, N, N, n, n);
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, M, n, m);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, N, M, n, m);

  (void)argc;
  (void)argv;
  init_array(n, m, &alpha, &beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_start_instruments;
  kernel_syr2k(n, m, alpha, beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_stop_instruments;
  print_array(n, POLYBENCH_ARRAY(C));
  POLYBENCH_FREE_ARRAY(C);
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  return 0;
}
