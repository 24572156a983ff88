/* expect: declined: array 'w' declared inside the region. */
#include <stdio.h>
#define N 100
double a[N], b[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = i % 5;
#pragma scop
  for (i = 0; i < N; i++) {
    double w[2];
    w[0] = a[i];
    w[1] = a[i] * 2;
    b[i] = w[0] + w[1];
  }
#pragma endscop
  printf("%.6f %.6f\n", b[3], b[N - 1]);
  return 0;
}
