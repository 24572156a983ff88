/* expect: optimized */
/* Packing the positive elements: the store's subscript is a counter written in the region. */
#include <stdio.h>

#define N 100

static double a[N], b[N], d[N];

int main(void)
{
  int i, k = 0;
  for (i = 0; i < N; i++) {
    a[i] = (double) ((i * 29) % 17) - 8.0;
    b[i] = 0.0;
  }
#pragma scop
  for (i = 0; i < N; i++)
    d[i] = a[i] * a[i];
  for (i = 0; i < N; i++)
    if (a[i] > 0) {
      b[k] = a[i];
      k = k + 1;
    }
#pragma endscop
  printf("%d\n", k);
  for (i = 0; i < k; i++)
    printf("%.6f\n", b[i]);
  printf("%.6f\n", d[N / 2]);
  return 0;
}
