/* expect: optimized */
/* An if on an array guarding a block of two statements and an else. */
#include <stdio.h>

#define N 150

static double c[N], x[N], y[N], z[N], u[N];

int main(void)
{
  int i;
  for (i = 0; i < N; i++) {
    c[i] = (double) ((i * 13) % 7) - 3.0;
    x[i] = y[i] = z[i] = -1.0;
  }
#pragma scop
  for (i = 0; i < N; i++) {
    if (c[i] > 0) {
      x[i] = c[i] * 2.0;
      y[i] = x[i] + 1.0;
    } else
      z[i] = -c[i];
  }
  for (i = 0; i < N; i++)
    u[i] = x[i] + y[i] + z[i];
#pragma endscop
  for (i = 0; i < N; i += 11)
    printf("%.6f %.6f %.6f %.6f\n", x[i], y[i], z[i], u[i]);
  return 0;
}
