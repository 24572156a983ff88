/* expect: optimized. A constant defined under '#ifndef', as a build could override it. */
#include <stdio.h>
#ifndef TILE
#define TILE 12
#endif
#define N 360
double a[N], b[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = (i % 10) * 0.5;
#pragma scop
  for (i = 0; i < N; i++)
    b[i] = a[i] * (i % TILE) + a[(i / TILE) * TILE];
#pragma endscop
  for (i = 0; i < N; i += 27)
    printf("%d %.6f\n", i, b[i]);
  return 0;
}
