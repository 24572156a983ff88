/* expect: optimized. An array of structures: 'p[i].x' and 'p[i].y' are two arrays. */
#include <stdio.h>
#define N 500
struct point { double x, y; };
struct point p[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++) {
    p[i].x = (i % 9) * 0.5;
    p[i].y = (i % 4) * 1.5;
  }
#pragma scop
  for (i = 1; i < N; i++)
    p[i].y = p[i].x + p[i - 1].x * 2;
  for (i = 0; i < N; i++)
    p[i].x = p[i].y * p[i].y;
#pragma endscop
  double sum = 0;
  for (i = 0; i < N; i++)
    sum += p[i].x - p[i].y;
  printf("%.6f %.6f\n", sum, p[N / 2].x);
  return 0;
}
