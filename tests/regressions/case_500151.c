/* polyopt flags: --fuse=max */
/* polyopt fuzz program, seed 500151 */
#include <stdio.h>

#define N 6
#define n N

static double B[2 * N + 4];
static int E[N + 4];
static double s;
static int t;
static float f;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < 2 * N + 4; i++)
    B[i] = (double)((i * 4 + 0 * 7 + 0 * 5 + 1) % 17) / 8.0 - 1.0;
  for (i = 0; i < N + 4; i++)
    E[i] = (i * 9 + 0 * 3 + 0 * 2 + 4) % 11 - 5;
  s = 0.25;
  t = 3;
  f = 1.5f;
}

static void kernel(void)
{
  int i, j, k, m;

#pragma scop
  for (i = n - 1; i >= 0; i--) {
    for (j = 0; j < 4; j++) {
      for (k = 2; k < 4; k++) {
        B[j] -= 0.5 * E[j] * -1.5 * B[2 * i + 1] + E[k + 1];
      }
    }
  }
#pragma endscop
}

static void dump(void)
{
  int i, j, k;

  printf("begin dump: B\n");
  for (i = 0; i < 2 * N + 4; i++) {
    printf("%.17g ", B[i]);
  }
  printf("\n");
  printf("begin dump: E\n");
  for (i = 0; i < N + 4; i++) {
    printf("%d ", E[i]);
  }
  printf("\n");
  printf("begin dump: s\n%.17g\n", s);
  printf("begin dump: t\n%d\n", t);
  printf("begin dump: f\n%.9g\n", f);
}

int main(void)
{
  init();
  kernel();
  dump();
  return 0;
}
