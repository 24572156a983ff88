/* expect: optimized. Reads at 'i / B' and a coarse array written at 'i / B' once per block. */
#include <stdio.h>
#define N 640
#define B 8
double a[N], coarse[N / B], fine[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = (i % 19) * 0.25;
#pragma scop
  for (i = 0; i < N; i++)
    if (i % B == 0)
      coarse[i / B] = a[i] + a[i + B - 1];
  for (i = 0; i < N; i++)
    fine[i] = a[i] - coarse[i / B];
#pragma endscop
  for (i = 0; i < N; i += 53)
    printf("%d %.6f\n", i, fine[i]);
  return 0;
}
