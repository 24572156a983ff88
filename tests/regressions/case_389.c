/* polyopt flags: --blas=none --rank-k-microkernel=1 --parallel-work=1 */
/* polyopt fuzz program, seed 389, family written */
#include <stdio.h>

#define N 10
#define n N

static double E[N + 4];
static int F[2 * N + 4];
static double s;
static int t;
static float f;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < N + 4; i++)
    E[i] = (double)((i * 7 + 0 * 7 + 0 * 5 + 4) % 17) / 8.0 - 1.0;
  for (i = 0; i < 2 * N + 4; i++)
    F[i] = (i * 10 + 0 * 3 + 0 * 2 + 5) % 11 - 5;
  s = 0.25;
  t = 3;
  f = 1.5f;
}

static void kernel(void)
{
  int i, j, k, m;
  double a1 = 0.0;

#pragma scop
  for (j = 0; j < n - 1; j++) {
    for (i = 0; i < n - 1; i += 2) {
      a1 += F[i + 1] * E[i + 1];
    }
  }
#pragma endscop
  printf("begin dump: a1\n%#.17g\n", (double)a1);
}

static void dump(void)
{
  int i, j, k;

  printf("begin dump: E\n");
  for (i = 0; i < N + 4; i++) {
    printf("%#.17g ", E[i]);
  }
  printf("\n");
  printf("begin dump: F\n");
  for (i = 0; i < 2 * N + 4; i++) {
    printf("%d ", F[i]);
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
