/* expect: declined: structure member in a loop bound. */
#include <stdio.h>
struct range { int n; double v[100]; } r;
int main(void)
{
  int i;
  r.n = 80;
  for (i = 0; i < 100; i++)
    r.v[i] = i % 9;
#pragma scop
  for (i = 0; i < r.n; i++)
    r.v[i] = r.v[i] * 3;
#pragma endscop
  printf("%.6f %.6f\n", r.v[5], r.v[90]);
  return 0;
}
