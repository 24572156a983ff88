/* expect: declined: call to 'fill' as a statement may have side effects: its body has a loop */
/* A callee with a loop is not summarized. */
#include <stdio.h>

#define N 20

static double A[N][N];

void fill(double *row, int n, double v)
{
  for (int j = 0; j < n; j++)
    row[j] = v;
}

int main(void)
{
  int i;
#pragma scop
  for (i = 0; i < N; i++)
    fill(A[i], N, (double) i);
#pragma endscop
  for (i = 0; i < N; i += 3)
    printf("%.6f\n", A[i][N - 1]);
  return 0;
}
