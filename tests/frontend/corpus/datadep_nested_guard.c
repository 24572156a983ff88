/* expect: optimized */
/* Nested data-dependent guards around an inner loop. */
#include <stdio.h>

#define N 50

static double r[N], col[N], X[N][N];

int main(void)
{
  int i, j;
  for (i = 0; i < N; i++) {
    r[i] = (double) ((i * 7) % 5) - 2.0;
    col[i] = (double) ((i * 3) % 4) - 1.0;
    for (j = 0; j < N; j++)
      X[i][j] = 0.5;
  }
#pragma scop
  for (i = 0; i < N; i++)
    if (r[i] > 0)
      for (j = 0; j < N; j++)
        if (col[j] < r[i])
          X[i][j] = r[i] - col[j];
  for (i = 0; i < N; i++)
    for (j = 1; j < N; j++)
      X[i][j] = X[i][j] + X[i][j - 1];
#pragma endscop
  for (i = 0; i < N; i += 7)
    printf("%.6f %.6f\n", X[i][N / 2], X[i][N - 1]);
  return 0;
}
