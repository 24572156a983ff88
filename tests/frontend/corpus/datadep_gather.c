/* expect: optimized */
/* A gather x[i][j] = A[perm[i]][j] feeding a matrix-vector product. */
#include <stdio.h>

#define N 60

static int perm[N];
static double A[N][N], x[N][N], v[N], y[N];

int main(void)
{
  int i, j;
  for (i = 0; i < N; i++) {
    perm[i] = (i * 11) % N;
    v[i] = (double) (i % 4);
    for (j = 0; j < N; j++)
      A[i][j] = (double) ((i + 2 * j) % 9);
  }
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x[i][j] = A[perm[i]][j] * 0.5;
  for (i = 0; i < N; i++) {
    y[i] = 0.0;
    for (j = 0; j < N; j++)
      y[i] += x[i][j] * v[j];
  }
#pragma endscop
  for (i = 0; i < N; i += 7)
    printf("%.6f\n", y[i]);
  return 0;
}
