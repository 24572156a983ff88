/* expect: optimized. 'enum' constants (one computed from another and a macro) as divisors. */
#include <stdio.h>
#define BASE 4
enum sizes { WIDTH = BASE * 2, HALF = WIDTH / 2, NEXT };
#define N 480
double a[N], b[N], c[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = (i % 29) * 0.5;
#pragma scop
  for (i = 0; i < N; i++) {
    b[i] = a[(i / WIDTH) * WIDTH] + a[i % HALF];
    c[i] = b[i] * (i % NEXT);
  }
#pragma endscop
  for (i = 0; i < N; i += 31)
    printf("%d %.6f %.6f\n", i, b[i], c[i]);
  return 0;
}
