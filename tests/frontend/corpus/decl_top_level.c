/* expect: optimized. A scalar declared at the region's top level, read by a later statement. */
#include <stdio.h>
#define N 500
double a[N], total[1];
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = (i % 9) * 0.125;
#pragma scop
  double s = 0.0;
  for (i = 0; i < N; i++)
    s = s + a[i];
  total[0] = s * 2;
#pragma endscop
  printf("%.6f\n", total[0]);
  return 0;
}
