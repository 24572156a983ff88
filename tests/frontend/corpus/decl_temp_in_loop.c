/* expect: optimized. A temporary declared in a loop body: private to each iteration. */
#include <stdio.h>
#define N 400
double a[N], b[N], c[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++) {
    a[i] = (i % 13) * 0.5;
    c[i] = (i % 7) - 3.0;
  }
#pragma scop
  for (i = 0; i < N; i++) {
    double t = a[i] * 2;
    b[i] = t + c[i];
  }
#pragma endscop
  for (i = 0; i < N; i += 37)
    printf("%d %.6f\n", i, b[i]);
  return 0;
}
