/* expect: optimized. A loop step that is a macro. */
#include <stdio.h>
#define N 400
#define S 4
double a[N], b[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = (i % 13) * 0.5;
#pragma scop
  for (i = 0; i < N; i += S)
    b[i] = a[i] + a[i + 1] + a[i + 2] + a[i + 3];
#pragma endscop
  for (i = 0; i < N; i += 36)
    printf("%d %.6f\n", i, b[i]);
  return 0;
}
