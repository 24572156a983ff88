/* polyopt flags: --notile */
/* polyopt fuzz program, seed 5476 */
#include <stdio.h>

#define N 5
#define n N

static double A[N + 4][N + 4];
static double B[N + 4][N + 4];
static double E[2 * N + 4][N + 4];
static double s;
static int t;
static float f;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++)
      A[i][j] = (double)((i * 3 + j * 7 + 0 * 5 + 0) % 17) / 8.0 - 1.0;
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++)
      B[i][j] = (double)((i * 4 + j * 7 + 0 * 5 + 1) % 17) / 8.0 - 1.0;
  for (i = 0; i < 2 * N + 4; i++)
    for (j = 0; j < N + 4; j++)
      E[i][j] = (double)((i * 7 + j * 7 + 0 * 5 + 4) % 17) / 8.0 - 1.0;
  s = 0.25;
  t = 3;
  f = 1.5f;
}

static void kernel(void)
{
  int i, j, k, m;

#pragma scop
  for (i = 0; i < n - 1; i++) {
    for (j = 0; j < n; j++) {
      B[i][j] = B[i][j] < B[n - 1][j] + B[i][n - 1] ? B[i][j] : B[n - 1][j] + B[i][n - 1];
    }
  }
  for (i = 0; i < 4; i++) {
    for (j = 0; j <= i; j++) {
      for (k = 0; k < n - 2; k++) {
        E[i][j] += A[k][i] * A[k][j];
      }
    }
  }
#pragma endscop
}

static void dump(void)
{
  int i, j, k;

  printf("begin dump: A\n");
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++) {
      printf("%#.17g ", A[i][j]);
    }
  printf("\n");
  printf("begin dump: B\n");
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++) {
      printf("%#.17g ", B[i][j]);
    }
  printf("\n");
  printf("begin dump: E\n");
  for (i = 0; i < 2 * N + 4; i++)
    for (j = 0; j < N + 4; j++) {
      printf("%#.17g ", E[i][j]);
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
