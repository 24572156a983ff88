/* expect: optimized. A declaration without an initializer, assigned on both branches of an 'if'. */
#include <stdio.h>
#define N 256
double a[N], b[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = (i % 7) * 1.5 - 4;
#pragma scop
  for (i = 0; i < N; i++) {
    double t;
    if (i % 2 == 0)
      t = a[i];
    else
      t = -a[i];
    b[i] = t * 2 + 1;
  }
#pragma endscop
  for (i = 0; i < N; i += 17)
    printf("%d %.6f\n", i, b[i]);
  return 0;
}
