/* expect: optimized. Scalar members read as coefficients in a 2-D nest. */
#include <stdio.h>
#define N 100
struct coefficients { double scale; double offset; };
double A[N][N], B[N][N];
static void kernel(struct coefficients c)
{
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      B[i][j] = A[j][i] * c.scale + c.offset;
#pragma endscop
}
int main(void)
{
  int i, j;
  struct coefficients c = {1.5, -2.0};
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = ((i + j) % 13) * 0.5;
  kernel(c);
  double sum = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      sum += B[i][j] * ((i * j) % 3);
  printf("%.6f\n", sum);
  return 0;
}
