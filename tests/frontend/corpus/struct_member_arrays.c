/* expect: optimized. Array members of a global structure: one array per member. */
#include <stdio.h>
#define N 400
struct fields { double u[N]; double v[N]; double w[N]; } s;
int main(void)
{
  int i;
  for (i = 0; i < N; i++) {
    s.u[i] = (i % 7) * 0.5;
    s.v[i] = (i % 5) * 0.25;
  }
#pragma scop
  for (i = 1; i < N; i++)
    s.w[i] = s.u[i] * s.v[i - 1] + s.u[i - 1];
  for (i = 1; i < N; i++)
    s.u[i] = s.w[i] * 0.5;
#pragma endscop
  for (i = 0; i < N; i += 37)
    printf("%d %.6f %.6f\n", i, s.u[i], s.w[i]);
  return 0;
}
