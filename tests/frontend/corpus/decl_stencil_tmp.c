/* expect: optimized. A 1-D Jacobi stencil over time with two temporaries in the body. */
#include <stdio.h>
#define T 20
#define N 200
double a[N], b[N];
int main(void)
{
  int t, i;
  for (i = 0; i < N; i++)
    a[i] = (i % 9) * 1.0;
#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 1; i < N - 1; i++) {
      double left = a[i - 1];
      double right = a[i + 1];
      b[i] = 0.33333 * (left + a[i] + right);
    }
    for (i = 1; i < N - 1; i++)
      a[i] = b[i];
  }
#pragma endscop
  for (i = 0; i < N; i += 23)
    printf("%d %.6f\n", i, a[i]);
  return 0;
}
