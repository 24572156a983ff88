/* polyopt flags: --noparallel */
/* polyopt fuzz program, seed 503023 */
#include <stdio.h>

#define N 13
#define n N

static double A[N + 4];
static int B[N + 4][N + 4];
static double C[2 * N + 4];
static int E[2 * N + 4];
static double s;
static int t;
static float f;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < N + 4; i++)
    A[i] = (double)((i * 3 + 0 * 7 + 0 * 5 + 0) % 17) / 8.0 - 1.0;
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++)
      B[i][j] = (i * 6 + j * 3 + 0 * 2 + 1) % 11 - 5;
  for (i = 0; i < 2 * N + 4; i++)
    C[i] = (double)((i * 5 + 0 * 7 + 0 * 5 + 2) % 17) / 8.0 - 1.0;
  for (i = 0; i < 2 * N + 4; i++)
    E[i] = (i * 9 + 0 * 3 + 0 * 2 + 4) % 11 - 5;
  s = 0.25;
  t = 3;
  f = 1.5f;
}

static void kernel(void)
{
  int i, j, k, m;

#pragma scop
  for (i = n - 1; i >= 1; i--) {
    for (j = n - 1; j >= 1; j--) {
      for (k = i; k <= i + 2 && k < n; k++) {
        for (m = 1; m <= n - 3; m++) {
          C[j] = B[m - 1][k] * C[i + 1] - C[i + k - 1];
        }
      }
      for (k = 2; k < i; k++) {
        A[j] = 3.0 * C[2 * j];
      }
    }
  }
  for (i = n - 3; i >= 0; i--) {
    for (j = 2; j < n; j++) {
      for (k = 1; k <= n - 2; k++) {
        s += 0.5 * A[i] * E[j + k - 1];
      }
    }
  }
#pragma endscop
}

static void dump(void)
{
  int i, j, k;

  printf("begin dump: A\n");
  for (i = 0; i < N + 4; i++) {
    printf("%.17g ", A[i]);
  }
  printf("\n");
  printf("begin dump: B\n");
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++) {
      printf("%d ", B[i][j]);
    }
  printf("\n");
  printf("begin dump: C\n");
  for (i = 0; i < 2 * N + 4; i++) {
    printf("%.17g ", C[i]);
  }
  printf("\n");
  printf("begin dump: E\n");
  for (i = 0; i < 2 * N + 4; i++) {
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
