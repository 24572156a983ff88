/* expect: declined: 'q' is written in the region. The region moves the pointer it reaches members through. */
#include <stdio.h>
#define N 50
struct vec { double v[N]; };
struct vec data[2];
int main(void)
{
  int i;
  struct vec *q = &data[0];
  for (i = 0; i < N; i++)
    data[0].v[i] = i;
#pragma scop
  for (i = 0; i < N; i++)
    q->v[i] = q->v[i] * 2;
  q = q + 1;
#pragma endscop
  printf("%.6f %.6f\n", data[0].v[7], q->v[0]);
  return 0;
}
