/* expect: optimized */
/* copy(a, b, i): a callee that copies one element, in a loop between two optimized loops. */
#include <stdio.h>

#define N 200

static double a[N], b[N], c[N];

static void copy(double *dst, const double *src, int i)
{
  dst[i] = src[i];
}

int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    b[i] = (double) ((i * 17) % 31);
#pragma scop
  for (i = 0; i < N; i++)
    b[i] = b[i] + 1.0;
  for (i = 0; i < N; i++)
    copy(a, b, i);
  for (i = 1; i < N; i++)
    c[i] = a[i] - a[i - 1];
#pragma endscop
  for (i = 1; i < N; i += 13)
    printf("%.6f %.6f\n", a[i], c[i]);
  return 0;
}
