/* expect: optimized */
/* A histogram (a scatter through an index array) and the loops that fill and normalize it. */
#include <stdio.h>

#define N 300
#define B 16

static int key[N], h[B];
static double w[N], f[B];

int main(void)
{
  int i, k;
  for (i = 0; i < N; i++)
    key[i] = (i * 7 + 3) % B;
#pragma scop
  for (k = 0; k < B; k++)
    h[k] = 0;
  for (i = 0; i < N; i++)
    w[i] = (double) (i % 5) + 0.5;
  for (i = 0; i < N; i++)
    h[key[i]] += 1;
  for (k = 0; k < B; k++)
    f[k] = h[k] * 0.25;
#pragma endscop
  for (k = 0; k < B; k++)
    printf("%d %.6f\n", h[k], f[k]);
  printf("%.6f\n", w[N - 1]);
  return 0;
}
