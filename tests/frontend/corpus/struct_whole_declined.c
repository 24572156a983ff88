/* expect: declined: 'p' is written in the region. A whole structure is copied while its members are accessed. */
#include <stdio.h>
#define N 60
struct pair { double a, b; };
struct pair p[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++) {
    p[i].a = i;
    p[i].b = -i;
  }
#pragma scop
  for (i = 1; i < N; i++) {
    p[i].a = p[i].a + p[i].b;
    p[i - 1] = p[i];
  }
#pragma endscop
  printf("%.6f %.6f\n", p[3].a, p[N - 1].b);
  return 0;
}
