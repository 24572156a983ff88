/* expect: optimized. A temporary in the body of a 2-D nest that transposes: tiled and parallel. */
#include <stdio.h>
#define N 120
double A[N][N], B[N][N];
int main(void)
{
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = ((i * 7 + j * 3) % 17) * 0.25;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      double t = A[i][j] + 1.0;
      B[j][i] = t * t;
    }
#pragma endscop
  double sum = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      sum += B[i][j] * ((i + 2 * j) % 5);
  printf("%.6f %.6f\n", sum, B[3][17]);
  return 0;
}
