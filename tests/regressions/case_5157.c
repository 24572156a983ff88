/* polyopt flags: --fuse=smart */
/* polyopt fuzz program, seed 5157 */
#include <stdio.h>

#define N 9
#define n N

static double A[2 * N + 4];
static double B[N + 4];
static double E[N + 4];
static double F[N + 4][N + 4];
static double s;
static int t;
static float f;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < 2 * N + 4; i++)
    A[i] = (double)((i * 3 + 0 * 7 + 0 * 5 + 0) % 17) / 8.0 - 1.0;
  for (i = 0; i < N + 4; i++)
    B[i] = (double)((i * 4 + 0 * 7 + 0 * 5 + 1) % 17) / 8.0 - 1.0;
  for (i = 0; i < N + 4; i++)
    E[i] = (double)((i * 7 + 0 * 7 + 0 * 5 + 4) % 17) / 8.0 - 1.0;
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++)
      F[i][j] = (double)((i * 8 + j * 7 + 0 * 5 + 5) % 17) / 8.0 - 1.0;
  s = 0.25;
  t = 3;
  f = 1.5f;
}

static void kernel(void)
{
  int i, j, k, m;

#pragma scop
  for (i = 0; i <= n - 3; i++) {
    for (j = i; j >= 0; j--) {
      for (k = i + 1; k < n; k++) {
        if (i % 2 == 1) {
          B[k] -= A[j] + E[j];
        }
      }
    }
  }
  for (i = 0; i < n - 1; i++) {
    for (j = 0; j < n; j++) {
      F[i][j] = F[i][j] < 0.5 * (F[i][0] - F[n - 1][j]) ? F[i][j] : 0.5 * (F[i][0] - F[n - 1][j]);
    }
  }
#pragma endscop
}

static void dump(void)
{
  int i, j, k;

  printf("begin dump: A\n");
  for (i = 0; i < 2 * N + 4; i++) {
    printf("%#.17g ", A[i]);
  }
  printf("\n");
  printf("begin dump: B\n");
  for (i = 0; i < N + 4; i++) {
    printf("%#.17g ", B[i]);
  }
  printf("\n");
  printf("begin dump: E\n");
  for (i = 0; i < N + 4; i++) {
    printf("%#.17g ", E[i]);
  }
  printf("\n");
  printf("begin dump: F\n");
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++) {
      printf("%#.17g ", F[i][j]);
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
