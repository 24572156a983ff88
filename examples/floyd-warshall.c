/* floyd-warshall: all-pairs shortest path lengths of a weighted directed graph with N nodes (integer weights). */
#define DATA_TYPE_IS_INT
#include "polybench_lite.h"

#if defined(MINI_DATASET)
# define N_DEFAULT 9
#elif defined(SMALL_DATASET)
# define N_DEFAULT 120
#else
# define N_DEFAULT 2800
#endif
#ifndef N
# define N N_DEFAULT
#endif
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

/* Edge weights are 1..47; some pairs get the large weight 1000 ("no edge"),
 * and the diagonal is 0.  Sums stay far below INT_MAX. */
static void init_array(int n, DATA_TYPE POLYBENCH_2D(path, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      path[i][j] = (i * 11 + j * 5 + i * j) % 47 + 1;
      if ((i * 3 + j) % 4 == 0 || (i + 2 * j) % 5 == 0)
        path[i][j] = 1000;
      if (i == j)
        path[i][j] = 0;
    }
}

static void print_array(int n, DATA_TYPE POLYBENCH_2D(path, N, N, n, n))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("path");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, path[i][j]);
    }
  POLYBENCH_DUMP_END("path");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_floyd_warshall(int n, DATA_TYPE POLYBENCH_2D(path, N, N, n, n))
{
  int i, j, k;

#pragma scop
  for (k = 0; k < _PB_N; k++) {
    for (i = 0; i < _PB_N; i++)
      for (j = 0; j < _PB_N; j++)
        path[i][j] = path[i][j] < path[i][k] + path[k][j] ?
                     path[i][j] : path[i][k] + path[k][j];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(path, DATA_TYPE, N, N, n, n);

  (void)argc;
  (void)argv;
  init_array(n, POLYBENCH_ARRAY(path));
  polybench_start_instruments;
  kernel_floyd_warshall(n, POLYBENCH_ARRAY(path));
  polybench_stop_instruments;
  print_array(n, POLYBENCH_ARRAY(path));
  POLYBENCH_FREE_ARRAY(path);
  return 0;
}
