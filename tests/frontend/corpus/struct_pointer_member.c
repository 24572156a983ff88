/* expect: optimized. Members reached through a pointer parameter that the region does not change. */
#include <stdio.h>
#define N 300
struct vec { int n; double data[N]; double out[N]; };
static void scale(struct vec *p, double f)
{
  int i;
#pragma scop
  for (i = 0; i < N; i++)
    p->out[i] = p->data[i] * f + 1;
#pragma endscop
}
int main(void)
{
  static struct vec v;
  int i;
  for (i = 0; i < N; i++)
    v.data[i] = (i % 11) * 0.5;
  scale(&v, 3.0);
  for (i = 0; i < N; i += 29)
    printf("%d %.6f\n", i, v.out[i]);
  return 0;
}
