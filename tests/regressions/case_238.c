/* polyopt flags: --blas=none --rank-k-microkernel=1 --parallel-work=1 */
/* polyopt fuzz program, seed 238, family written */
#include <stdio.h>

#define N 10
#define n N

static double B[N + 4][2 * N + 4];
static double F[N + 4];
static double s;
static int t;
static float f;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < N + 4; i++)
    for (j = 0; j < 2 * N + 4; j++)
      B[i][j] = (double)((i * 4 + j * 7 + 0 * 5 + 1) % 17) / 8.0 - 1.0;
  for (i = 0; i < N + 4; i++)
    F[i] = (double)((i * 8 + 0 * 7 + 0 * 5 + 5) % 17) / 8.0 - 1.0;
  s = 0.25;
  t = 3;
  f = 1.5f;
}

static void kernel(void)
{
  int i, j, k, m;

#pragma scop
  for (j = 0; j < 3; j++) {
    for (i = 0; i < n - 1; i += 2) {
      B[j][i + 1] += s * F[i + 1];
    }
  }
#pragma endscop
}

static void dump(void)
{
  int i, j, k;

  printf("begin dump: B\n");
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < 2 * N + 4; j++) {
      printf("%#.17g ", B[i][j]);
    }
  printf("\n");
  printf("begin dump: F\n");
  for (i = 0; i < N + 4; i++) {
    printf("%#.17g ", F[i]);
  }
  printf("\n");
  printf("begin dump: s\n%#.17g\n", s);
  printf("begin dump: t\n%d\n", t);
  printf("begin dump: f\n%#.9g\n", f);
}

int main(void)
{
  init();
  kernel();
  dump();
  return 0;
}
