/* expect: optimized. A histogram-like update at 'i % B' with '#define B 16'. */
#include <stdio.h>
#define N 1000
#define B 16
double a[N], h[B];
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = (i % 23) * 0.5;
#pragma scop
  for (i = 0; i < N; i++)
    h[i % B] += a[i];
#pragma endscop
  for (i = 0; i < B; i++)
    printf("%d %.6f\n", i, h[i]);
  return 0;
}
