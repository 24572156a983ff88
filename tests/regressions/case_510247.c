/* polyopt flags: --noparallel */
/* polyopt fuzz program, seed 510247 */
#include <stdio.h>

#define N 9
#define n N

static double A[N + 4];
static int C[N + 4];
static double s;
static int t;
static float f;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < N + 4; i++)
    A[i] = (double)((i * 3 + 0 * 7 + 0 * 5 + 0) % 17) / 8.0 - 1.0;
  for (i = 0; i < N + 4; i++)
    C[i] = (i * 7 + 0 * 3 + 0 * 2 + 2) % 11 - 5;
  s = 0.25;
  t = 3;
  f = 1.5f;
}

static void kernel(void)
{
  int i, j, k, m;

#pragma scop
  for (i = n - 1; i >= 0; i--) {
    for (j = 2; j < i; j++) {
      for (k = n - 2; k >= 0; k--) {
        C[-k + n - 1] = (C[-k + n - 1] + (C[k + 1]) % 1009) % 1009;
      }
    }
  }
  for (i = n - 2; i >= 0; i--) {
    s = 0.0;
    for (j = 0; j < n; j++) {
      s += C[i + 1] * A[j] + 2.0;
    }
    A[i + 1] = s;
  }
#pragma endscop
}

static void dump(void)
{
  int i, j, k;

  printf("begin dump: A\n");
  for (i = 0; i < N + 4; i++) {
    printf("%#.17g ", A[i]);
  }
  printf("\n");
  printf("begin dump: C\n");
  for (i = 0; i < N + 4; i++) {
    printf("%d ", C[i]);
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
