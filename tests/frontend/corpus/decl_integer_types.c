/* expect: optimized. Integer temporaries of several types: their C types reach the model. */
#include <stdio.h>
#define N 300
int a[N], b[N];
long c[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = (i * 37) % 101;
#pragma scop
  for (i = 0; i < N; i++) {
    long k = a[i] * 3L;
    unsigned int u = a[i] + 7;
    b[i] = (int) (k % 7) + (int) (u / 3);
    c[i] = k * u;
  }
#pragma endscop
  long sum = 0;
  for (i = 0; i < N; i++)
    sum += b[i] + c[i];
  printf("%ld\n", sum);
  return 0;
}
