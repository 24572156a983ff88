/* hops: the fewest hops between any two nodes of a graph (all-pairs shortest paths), in PolyBench/C's layout. */
#include <stdio.h>

#include <polybench.h>

#include "hops.h"

static void init_array(int n, DATA_TYPE POLYBENCH_2D(D, N, N, n, n))
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      D[i][j] = i == j ? 0 : (i * j % 7 == 0 || (i + j) % 5 == 0) ? 1 : 999;
}

static void print_array(int n, DATA_TYPE POLYBENCH_2D(D, N, N, n, n))
{
  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("D");
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, D[i][j]);
    }
  POLYBENCH_DUMP_END("D");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_hops(int n, DATA_TYPE POLYBENCH_2D(D, N, N, n, n))
{
  int i, j, k;
#pragma scop
  for (k = 0; k < _PB_N; k++)
    for (i = 0; i < _PB_N; i++)
      for (j = 0; j < _PB_N; j++)
        D[i][j] = D[i][j] < D[i][k] + D[k][j] ? D[i][j] : D[i][k] + D[k][j];
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(D, DATA_TYPE, N, N, n, n);
  init_array(n, POLYBENCH_ARRAY(D));
  polybench_start_instruments;
  kernel_hops(n, POLYBENCH_ARRAY(D));
  polybench_stop_instruments;
  polybench_print_instruments;
  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(D)));
  POLYBENCH_FREE_ARRAY(D);
  return 0;
}
