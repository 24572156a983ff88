/* expect: optimized. Block sums: 'N / B' in a bound and 'i * B + j' in a subscript. */
#include <stdio.h>
#define N 512
#define B 32
double a[N], c[N / B];
int main(void)
{
  int i, j;
  for (i = 0; i < N; i++)
    a[i] = (i % 21) * 0.5;
#pragma scop
  for (i = 0; i < N / B; i++)
    for (j = 0; j < B; j++)
      c[i] += a[i * B + j];
#pragma endscop
  for (i = 0; i < N / B; i++)
    printf("%d %.6f\n", i, c[i]);
  return 0;
}
