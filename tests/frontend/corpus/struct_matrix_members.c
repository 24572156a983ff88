/* expect: optimized. A matrix product on 2-D array members reached through pointers. */
#include <stdio.h>
#define N 64
struct matrix { double e[N][N]; };
static void multiply(struct matrix *c, const struct matrix *a, const struct matrix *b)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      c->e[i][j] = 0;
      for (k = 0; k < N; k++)
        c->e[i][j] += a->e[i][k] * b->e[k][j];
    }
#pragma endscop
}
int main(void)
{
  static struct matrix a, b, c;
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      a.e[i][j] = ((i + j) % 7) * 0.5;
      b.e[i][j] = ((i * j) % 5) * 0.25;
    }
  multiply(&c, &a, &b);
  double sum = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      sum += c.e[i][j] * ((i + 2 * j) % 3);
  printf("%.6f\n", sum);
  return 0;
}
