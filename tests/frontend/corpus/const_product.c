/* expect: optimized. A 2-D array stored flat: the subscript 'i * M + j' with '#define M 50'. */
#include <stdio.h>
#define N 60
#define M 50
double a[N * M], b[N * M];
int main(void)
{
  int i, j;
  for (i = 0; i < N * M; i++)
    a[i] = (i % 31) * 0.5;
#pragma scop
  for (i = 1; i < N; i++)
    for (j = 0; j < M; j++)
      b[i * M + j] = a[i * M + j] + a[(i - 1) * M + j];
#pragma endscop
  double sum = 0;
  for (i = 0; i < N * M; i++)
    sum += b[i] * (i % 7);
  printf("%.6f\n", sum);
  return 0;
}
