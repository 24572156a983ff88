/* Reference for the benchmark: 3mm computed by direct CBLAS calls (link with -lopenblas). */
/* 3mm: G := (A*B)*(C*D), computed as E := A*B, F := C*D, then G := E*F. */
#include <cblas.h>
#include "polybench_lite.h"

#if defined(MINI_DATASET)
# define NI_DEFAULT 5
# define NJ_DEFAULT 7
# define NK_DEFAULT 9
# define NL_DEFAULT 4
# define NM_DEFAULT 11
#elif defined(SMALL_DATASET)
# define NI_DEFAULT 40
# define NJ_DEFAULT 50
# define NK_DEFAULT 60
# define NL_DEFAULT 70
# define NM_DEFAULT 80
#else
# define NI_DEFAULT 800
# define NJ_DEFAULT 900
# define NK_DEFAULT 1000
# define NL_DEFAULT 1100
# define NM_DEFAULT 1200
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
#ifndef NM
# define NM NM_DEFAULT
#endif
#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)
#define _PB_NL POLYBENCH_LOOP_BOUND(NL, nl)
#define _PB_NM POLYBENCH_LOOP_BOUND(NM, nm)

static void init_array(int ni, int nj, int nk, int nl, int nm,
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE POLYBENCH_2D(C, NJ, NM, nj, nm),
                       DATA_TYPE POLYBENCH_2D(D, NM, NL, nm, nl))
{
  int i, j;

  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (DATA_TYPE)((i * (j + 2) + 1) % ni) / (5 * ni);
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i][j] = (DATA_TYPE)(((i + 3) * j + 2) % nj) / (5 * nj);
  for (i = 0; i < nj; i++)
    for (j = 0; j < nm; j++)
      C[i][j] = (DATA_TYPE)((i * (j + 4)) % nl + 1) / (5 * nl);
  for (i = 0; i < nm; i++)
    for (j = 0; j < nl; j++)
      D[i][j] = (DATA_TYPE)(((i + 1) * (j + 3) + 2) % nk) / (5 * nk);
}

static void print_array(int ni, int nl, DATA_TYPE POLYBENCH_2D(G, NI, NL, ni, nl))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("G");
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      if ((i * ni + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, G[i][j]);
    }
  POLYBENCH_DUMP_END("G");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_3mm(int ni, int nj, int nk, int nl, int nm,
                       DATA_TYPE POLYBENCH_2D(E, NI, NJ, ni, nj),
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE POLYBENCH_2D(F, NJ, NL, nj, nl),
                       DATA_TYPE POLYBENCH_2D(C, NJ, NM, nj, nm),
                       DATA_TYPE POLYBENCH_2D(D, NM, NL, nm, nl),
                       DATA_TYPE POLYBENCH_2D(G, NI, NL, ni, nl))
{
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, nj, nk, 1.0, &A[0][0], (int)(sizeof(A[0]) / sizeof(A[0][0])), &B[0][0], (int)(sizeof(B[0]) / sizeof(B[0][0])), 0.0, &E[0][0], (int)(sizeof(E[0]) / sizeof(E[0][0])));
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, nj, nl, nm, 1.0, &C[0][0], (int)(sizeof(C[0]) / sizeof(C[0][0])), &D[0][0], (int)(sizeof(D[0]) / sizeof(D[0][0])), 0.0, &F[0][0], (int)(sizeof(F[0]) / sizeof(F[0][0])));
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, nl, nj, 1.0, &E[0][0], (int)(sizeof(E[0]) / sizeof(E[0][0])), &F[0][0], (int)(sizeof(F[0]) / sizeof(F[0][0])), 0.0, &G[0][0], (int)(sizeof(G[0]) / sizeof(G[0][0])));
}

int main(int argc, char **argv)
{
  int ni = NI;
  int nj = NJ;
  int nk = NK;
  int nl = NL;
  int nm = NM;
  POLYBENCH_2D_ARRAY_DECL(E, DATA_TYPE, NI, NJ, ni, nj);
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NK, ni, nk);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, NK, NJ, nk, nj);
  POLYBENCH_2D_ARRAY_DECL(F, DATA_TYPE, NJ, NL, nj, nl);
  POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, NJ, NM, nj, nm);
  POLYBENCH_2D_ARRAY_DECL(D, DATA_TYPE, NM, NL, nm, nl);
  POLYBENCH_2D_ARRAY_DECL(G, DATA_TYPE, NI, NL, ni, nl);

  (void)argc;
  (void)argv;
  init_array(ni, nj, nk, nl, nm, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B), POLYBENCH_ARRAY(C),
             POLYBENCH_ARRAY(D));
  polybench_start_instruments;
  kernel_3mm(ni, nj, nk, nl, nm, POLYBENCH_ARRAY(E), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B),
             POLYBENCH_ARRAY(F), POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(D), POLYBENCH_ARRAY(G));
  polybench_stop_instruments;
  print_array(ni, nl, POLYBENCH_ARRAY(G));
  POLYBENCH_FREE_ARRAY(E);
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  POLYBENCH_FREE_ARRAY(F);
  POLYBENCH_FREE_ARRAY(C);
  POLYBENCH_FREE_ARRAY(D);
  POLYBENCH_FREE_ARRAY(G);
  return 0;
}
