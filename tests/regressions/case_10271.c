/* polyopt flags: --identity */
/* polyopt fuzz program, seed 10271 */
#include <stdio.h>

#define N 9
#define n N

static double A[N + 4][N + 4][N + 4];
static double s;
static int t;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++)
      for (k = 0; k < N + 4; k++)
        A[i][j][k] = (double)((i * 3 + j * 7 + k * 5 + 0) % 17) / 8.0 - 1.0;
  s = 0.25;
  t = 3;
}

static void kernel(void)
{
  int i, j, k, m;

#pragma scop
  for (i = 2; i < n; i++) {
    for (j = 0; j < n; j += 2) {
      if (j >= 1 && i < n - 2) {
        for (k = 0; k <= n - 2; k++) {
          if (i >= 1 && j < n - 2) {
            s -= A[i - 1][-i + n - 1][-k + n - 1] + 3.0 * A[i + 1][j][k] * A[-k + n - 1][-k + n - 1][-i + n - 1];
            A[k][j][i - 1] = A[j + 1][i][i - 1] + A[j + 1][i][i - 1];
          }
        }
        for (k = n - 1; k >= 2; k--) {
          A[k][j][k - 1] = A[k][j + 1][i + 1] + 3.0 * A[i - 1][0][i - 1] - 3.0 * A[k + 1][k][i];
          A[-k + n - 1][j][i] -= A[j][k + 1][k] * A[j + 1][k - 1][j];
        }
      }
    }
  }
  for (i = n - 2; i >= 1; i--) {
    for (j = i + 1; j < n; j++) {
      A[-i + n - 1][j][-i + n - 1] += A[i][j][i - 1] - A[j][j + 1][j] * A[i][j - 1][i];
    }
  }
#pragma endscop
}

static void dump(void)
{
  int i, j, k;

  printf("begin dump: A\n");
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++)
      for (k = 0; k < N + 4; k++) {
        printf("%.17g ", A[i][j][k]);
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
