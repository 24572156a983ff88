/* expect: optimized. A temporary of a type named by a typedef of the file. */
#include <stdio.h>
#define N 300
typedef double real;
real x[N], y[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    x[i] = (i % 8) * 0.5;
#pragma scop
  for (i = 0; i < N; i++) {
    real sq = x[i] * x[i];
    y[i] = sq + x[i];
  }
#pragma endscop
  real sum = 0;
  for (i = 0; i < N; i++)
    sum += y[i];
  printf("%.6f\n", sum);
  return 0;
}
