/* expect: declined: division by a non-constant or non-positive value. */
#include <stdio.h>
#define N 100
#define D (-4)
double a[N], b[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = i % 7;
#pragma scop
  for (i = 0; i < N; i++)
    b[i] = a[i % D];
#pragma endscop
  printf("%.6f %.6f\n", b[5], b[N - 1]);
  return 0;
}
