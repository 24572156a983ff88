/* polyopt flags: --no-expand */
/* polyopt fuzz program, seed 11639 */
#include <stdio.h>

#define N 8
#define n N

static double A[2 * N + 4][2 * N + 4];
static double B[N + 4][N + 4];
static double s;
static int t;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < 2 * N + 4; i++)
    for (j = 0; j < 2 * N + 4; j++)
      A[i][j] = (double)((i * 3 + j * 7 + 0 * 5 + 0) % 17) / 8.0 - 1.0;
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++)
      B[i][j] = (double)((i * 4 + j * 7 + 0 * 5 + 1) % 17) / 8.0 - 1.0;
  s = 0.25;
  t = 3;
}

static void kernel(void)
{
  int i, j, k, m;

#pragma scop
  for (i = 0; i < n - 2; i += 2) {
    for (j = 1; j < n; j++) {
      for (k = 1; k < 4; k++) {
        for (m = i; m >= 2; m--) {
          B[-k + n - 1][k] = B[k - 1][m + i - 1] + B[i][m];
          B[j][k + 1] -= A[m][k] + A[i][m] + B[j + 1][k];
        }
      }
    }
  }
#pragma endscop
}

static void dump(void)
{
  int i, j, k;

  printf("begin dump: A\n");
  for (i = 0; i < 2 * N + 4; i++)
    for (j = 0; j < 2 * N + 4; j++) {
      printf("%.17g ", A[i][j]);
    }
  printf("\n");
  printf("begin dump: B\n");
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++) {
      printf("%.17g ", B[i][j]);
    }
  printf("\n");
  printf("begin dump: s\n%.17g\n", s);
  printf("begin dump: t\n%d\n", t);
}

int main(void)
{
  init();
  kernel();
  dump();
  return 0;
}
