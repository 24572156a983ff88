/* polyopt flags: --no-reassociate */
/* polyopt fuzz program, seed 290, family written */
#include <stdio.h>

#define N 13
#define n N

static int B[N + 4][N + 4];
static int E[N + 4];
static int G[N + 4];
static double s;
static int t;
static float f;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++)
      B[i][j] = (i * 6 + j * 3 + 0 * 2 + 1) % 11 - 5;
  for (i = 0; i < N + 4; i++)
    E[i] = (i * 9 + 0 * 3 + 0 * 2 + 4) % 11 - 5;
  for (i = 0; i < N + 4; i++)
    G[i] = (i * 11 + 0 * 3 + 0 * 2 + 6) % 11 - 5;
  s = 0.25;
  t = 3;
  f = 1.5f;
}

static void kernel(void)
{
  int i, j, k, m;
  long n0 = n - 2;

#pragma scop
  for (i = 0; i < n0; i++) {
    for (j = i + 1; j < n; j++) {
      B[i + 1][j] = (E[i + 1] + G[j]) % 1009;
    }
  }
#pragma endscop
  printf("begin dump: n0\n%ld\n", (long)n0);
}

static void dump(void)
{
  int i, j, k;

  printf("begin dump: B\n");
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++) {
      printf("%d ", B[i][j]);
    }
  printf("\n");
  printf("begin dump: E\n");
  for (i = 0; i < N + 4; i++) {
    printf("%d ", E[i]);
  }
  printf("\n");
  printf("begin dump: G\n");
  for (i = 0; i < N + 4; i++) {
    printf("%d ", G[i]);
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
