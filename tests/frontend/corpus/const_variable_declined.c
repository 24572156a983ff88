/* expect: declined: division by a non-constant. A divisor that is a variable, not a named constant. */
#include <stdio.h>
#define N 100
double a[N], b[N];
int m = 6;
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = i % 7;
#pragma scop
  for (i = 0; i < N; i++)
    b[i] = a[i % m];
#pragma endscop
  printf("%.6f %.6f\n", b[5], b[N - 1]);
  return 0;
}
