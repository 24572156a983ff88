/* expect: optimized. A member of a member: 'm.inner.v[i]'. */
#include <stdio.h>
#define N 256
struct inner { double v[N]; };
struct outer { struct inner in; struct inner out; } m;
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    m.in.v[i] = (i % 12) * 0.5;
#pragma scop
  for (i = 2; i < N; i++)
    m.out.v[i] = m.in.v[i] + m.in.v[i - 2];
#pragma endscop
  for (i = 0; i < N; i += 25)
    printf("%d %.6f\n", i, m.out.v[i]);
  return 0;
}
