/* Reference for the benchmark: 2mm computed by direct CBLAS calls (link with -lopenblas). */
/* 2mm: D := alpha*A*B*C + beta*D, computed as tmp := alpha*A*B, then D := beta*D + tmp*C. */
#include <cblas.h>
#include "polybench_lite.h"

#if defined(MINI_DATASET)
# define NI_DEFAULT 5
# define NJ_DEFAULT 7
# define NK_DEFAULT 9
# define NL_DEFAULT 4
#elif defined(SMALL_DATASET)
# define NI_DEFAULT 40
# define NJ_DEFAULT 50
# define NK_DEFAULT 70
# define NL_DEFAULT 60
#else
# define NI_DEFAULT 800
# define NJ_DEFAULT 900
# define NK_DEFAULT 1100
# define NL_DEFAULT 1200
#endif
#ifndef NI
# define NI NI_DEFAULT
#endif
#ifndef NJ
# define NJ NJ_DEFAULT
#endif
#ifndef NK
# define NK NK_DEFAULT
#endif
#ifndef NL
# define NL NL_DEFAULT
#endif
#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)
#define _PB_NL POLYBENCH_LOOP_BOUND(NL, nl)

static void init_array(int ni, int nj, int nk, int nl, DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE POLYBENCH_2D(C, NJ, NL, nj, nl),
                       DATA_TYPE POLYBENCH_2D(D, NI, NL, ni, nl))
{
  int i, j;

  *alpha = 1.25;
  *beta = 0.75;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (DATA_TYPE)((i * (j + 3) + 1) % ni) / ni;
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i][j] = (DATA_TYPE)((i + 2) * (j + 1) % nj) / nj;
  for (i = 0; i < nj; i++)
    for (j = 0; j < nl; j++)
      C[i][j] = (DATA_TYPE)((i * (j + 2) + 3) % nl) / nl;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++)
      D[i][j] = (DATA_TYPE)((i + 1) * (j + 5) % nk) / nk;
}

static void print_array(int ni, int nl, DATA_TYPE POLYBENCH_2D(D, NI, NL, ni, nl))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("D");
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      if ((i * ni + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, D[i][j]);
    }
  POLYBENCH_DUMP_END("D");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_2mm(int ni, int nj, int nk, int nl, DATA_TYPE alpha, DATA_TYPE beta,
                       DATA_TYPE POLYBENCH_2D(tmp, NI, NJ, ni, nj),
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE POLYBENCH_2D(C, NJ, NL, nj, nl),
                       DATA_TYPE POLYBENCH_2D(D, NI, NL, ni, nl))
{
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, nj, nk, alpha, &A[0][0], (int)(sizeof(A[0]) / sizeof(A[0][0])), &B[0][0], (int)(sizeof(B[0]) / sizeof(B[0][0])), 0.0, &tmp[0][0], (int)(sizeof(tmp[0]) / sizeof(tmp[0][0])));
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, nl, nj, 1.0, &tmp[0][0], (int)(sizeof(tmp[0]) / sizeof(tmp[0][0])), &C[0][0], (int)(sizeof(C[0]) / sizeof(C[0][0])), beta, &D[0][0], (int)(sizeof(D[0]) / sizeof(D[0][0])));
}

int main(int argc, char **argv)
{
  int ni = NI;
  int nj = NJ;
  int nk = NK;
  int nl = NL;
  DATA_TYPE alpha;
  DATA_TYPE beta;
  POLYBENCH_2D_ARRAY_DECL(tmp, DATA_TYPE, NI, NJ, ni, nj);
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NK, ni, nk);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, NK, NJ, nk, nj);
  POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, NJ, NL, nj, nl);
  POLYBENCH_2D_ARRAY_DECL(D, DATA_TYPE, NI, NL, ni, nl);

  (void)argc;
  (void)argv;
  init_array(ni, nj, nk, nl, &alpha, &beta, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B),
             POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(D));
  polybench_start_instruments;
  kernel_2mm(ni, nj, nk, nl, alpha, beta, POLYBENCH_ARRAY(tmp), POLYBENCH_ARRAY(A),
             POLYBENCH_ARRAY(B), POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(D));
  polybench_stop_instruments;
  print_array(ni, nl, POLYBENCH_ARRAY(D));
  POLYBENCH_FREE_ARRAY(tmp);
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  POLYBENCH_FREE_ARRAY(C);
  POLYBENCH_FREE_ARRAY(D);
  return 0;
}
