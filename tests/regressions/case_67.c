/* polyopt flags: --notile */
/* polyopt fuzz program, seed 67, family written */
#include <stdio.h>

#define N 6

static double C[2 * N + 4];
static int G[N + 4];
static double s;
static int t;
static float f;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < 2 * N + 4; i++)
    C[i] = (double)((i * 5 + 0 * 7 + 0 * 5 + 2) % 17) / 8.0 - 1.0;
  for (i = 0; i < N + 4; i++)
    G[i] = (i * 11 + 0 * 3 + 0 * 2 + 6) % 11 - 5;
  s = 0.25;
  t = 3;
  f = 1.5f;
}

static void kernel(int n)
{
  int i, j, k, m;
  double a4 = 0.0;

#pragma scop
  for (j = 0; j < 3; j++) {
    for (i = 0; i < n - 4; i += 5) {
      a4 += C[i + 4] * G[i + 4];
    }
  }
#pragma endscop
  printf("begin dump: a4\n%#.17g\n", (double)a4);
}

static void dump(void)
{
  int i, j, k;

  printf("begin dump: C\n");
  for (i = 0; i < 2 * N + 4; i++) {
    printf("%#.17g ", C[i]);
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
  kernel(N);
  dump();
  return 0;
}
