/* scale: B := alpha * A + B, in PolyBench/C's layout (the header next to it, polybench.h in utilities/). */
#include <stdio.h>

#include <polybench.h>

#include "scale.h"

static void kernel_scale(int ni, int nj, DATA_TYPE alpha, DATA_TYPE POLYBENCH_2D(A, NI, NJ, ni, nj),
                         DATA_TYPE POLYBENCH_2D(B, NI, NJ, ni, nj))
{
  int i, j;
#pragma scop
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NJ; j++)
      B[i][j] += alpha * A[i][j];
#pragma endscop
}

int main(void)
{
  int ni = NI;
  int nj = NJ;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NJ, ni, nj);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, NI, NJ, ni, nj);
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      (*A)[i][j] = (DATA_TYPE)((i * j + 1) % ni) / ni;
      (*B)[i][j] = (DATA_TYPE)((i + j) % nj) / nj;
    }
  kernel_scale(ni, nj, SCALAR_VAL(1.5), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++)
      printf("%0.6f\n", (*B)[i][j]);
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  return 0;
}
