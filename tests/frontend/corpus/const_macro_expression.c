/* expect: optimized. Macros that expand to integer expressions, as divisors in a subscript and a condition. */
#include <stdio.h>
#define BLOCK (2 * 8)
#define HALF (BLOCK / 2)
#define N (BLOCK * 30)
double a[N], b[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = (i % 17) * 0.5;
#pragma scop
  for (i = HALF; i < N; i++)
    if (i % HALF != 3)
      b[i] = a[i % BLOCK] + a[i - HALF] * (i % BLOCK);
#pragma endscop
  for (i = 0; i < N; i += 29)
    printf("%d %.6f\n", i, b[i]);
  return 0;
}
