/* expect: optimized */
/* swap(a, b, i) through a local temporary; the caller then combines both arrays. */
#include <stdio.h>

#define N 120

static double a[N], b[N], s[N];

void swap(double *p, double *q, int i)
{
  double t = p[i];
  p[i] = q[i];
  q[i] = t;
}

int main(void)
{
  int i;
  for (i = 0; i < N; i++) {
    a[i] = (double) i;
    b[i] = (double) (N - i) * 0.5;
  }
#pragma scop
  for (i = 0; i < N; i += 2)
    swap(a, b, i);
  for (i = 0; i < N; i++)
    s[i] = a[i] * 2.0 + b[i];
#pragma endscop
  for (i = 0; i < N; i += 7)
    printf("%.6f %.6f %.6f\n", a[i], b[i], s[i]);
  return 0;
}
