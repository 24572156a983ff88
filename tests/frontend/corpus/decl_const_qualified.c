/* expect: optimized. 'const' temporaries, one initialized from the other. */
#include <stdio.h>
#define N 400
double a[N + 1], b[N];
int main(void)
{
  int i;
  for (i = 0; i <= N; i++)
    a[i] = (i % 11) * 0.75;
#pragma scop
  for (i = 0; i < N; i++) {
    const double mean = 0.5 * (a[i] + a[i + 1]);
    const double spread = a[i + 1] - mean;
    b[i] = mean * spread;
  }
#pragma endscop
  for (i = 0; i < N; i += 41)
    printf("%d %.6f\n", i, b[i]);
  return 0;
}
