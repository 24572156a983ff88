/* expect: optimized */
/* A scatter a[idx[i]] = b[i], then a stencil reading what the scatter wrote. */
#include <stdio.h>

#define N 128

static int idx[N];
static double a[N], b[N], c[N];

int main(void)
{
  int i;
  for (i = 0; i < N; i++) {
    idx[i] = (i * 5) % N;
    a[i] = 1.0;
    b[i] = (double) i;
  }
#pragma scop
  for (i = 0; i < N; i++)
    b[i] = b[i] * 3.0 - 1.0;
  for (i = 0; i < N; i++)
    a[idx[i]] = b[i];
  for (i = 1; i < N - 1; i++)
    c[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
#pragma endscop
  for (i = 1; i < N - 1; i += 9)
    printf("%.6f %.6f\n", a[i], c[i]);
  return 0;
}
