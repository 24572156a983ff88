/* expect: optimized. A 2-D grid of structures with a stencil from one member into another. */
#include <stdio.h>
#define N 80
struct cell { double t; double next; };
struct cell g[N][N];
int main(void)
{
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      g[i][j].t = ((i * 3 + j) % 10) * 0.5;
#pragma scop
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      g[i][j].next = 0.2 * (g[i][j].t + g[i - 1][j].t + g[i + 1][j].t + g[i][j - 1].t + g[i][j + 1].t);
#pragma endscop
  double sum = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      sum += g[i][j].next * ((i + j) % 4);
  printf("%.6f\n", sum);
  return 0;
}
