/* expect: optimized */
/* A conditional sum (the guard reads the summed array) between two loops that are optimized. */
#include <stdio.h>

#define N 200

static double a[N], b[N], c[N];

int main(void)
{
  int i;
  double s = 0.0, t = 0.0;
  for (i = 0; i < N; i++) {
    a[i] = (double) ((i * 37) % 23) - 11.0;
    b[i] = (double) (i % 7);
  }
#pragma scop
  for (i = 0; i < N; i++)
    c[i] = a[i] * 2.0 + b[i];
  for (i = 0; i < N; i++)
    if (c[i] > 0)
      s += c[i];
  for (i = 0; i < N; i++)
    b[i] = b[i] + c[i];
  for (i = 0; i < N; i++)
    t += b[i];
#pragma endscop
  printf("%.6f %.6f\n", s, t);
  for (i = 0; i < N; i += 17)
    printf("%.6f %.6f\n", b[i], c[i]);
  return 0;
}
