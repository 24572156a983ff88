/* expect: optimized */
/* bump(h, key[i]): a call whose subscript argument reads an index array (a may-write). */
#include <stdio.h>

#define N 200
#define B 10

static int key[N];
static double h[B], g[B];

void bump(double *hist, int k)
{
  hist[k] += 1.0;
}

int main(void)
{
  int i, k;
  for (i = 0; i < N; i++)
    key[i] = (i * i) % B;
#pragma scop
  for (k = 0; k < B; k++)
    h[k] = 0.0;
  for (i = 0; i < N; i++)
    bump(h, key[i]);
  for (k = 0; k < B; k++)
    g[k] = h[k] / N;
#pragma endscop
  for (k = 0; k < B; k++)
    printf("%.6f %.6f\n", h[k], g[k]);
  return 0;
}
