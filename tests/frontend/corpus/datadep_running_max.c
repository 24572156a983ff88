/* expect: optimized */
/* A running maximum: the guard reads the scalar its one statement writes. */
#include <stdio.h>

#define N 256

static double a[N], b[N];

int main(void)
{
  int i;
  double m = -1000.0;
  for (i = 0; i < N; i++)
    a[i] = (double) ((i * 61) % 97) - 40.0;
#pragma scop
  for (i = 0; i < N; i++)
    if (a[i] > m)
      m = a[i];
  for (i = 0; i < N; i++)
    b[i] = a[i] / 2.0;
#pragma endscop
  printf("%.6f %.6f\n", m, b[N - 3]);
  return 0;
}
