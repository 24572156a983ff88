/* polyopt flags: --fixed-tile-size=4 */
/* polyopt fuzz program, seed 200226 */
#include <stdio.h>
#include <stdlib.h>

#define N 11
#define SZ0 0

static int A[N + 4][N + 4];
static double (*B)[N + 4];
static int C[N + 4];
static double D[N + 4][N + 4];
static double s;
static int t;
static float f;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++)
      A[i][j] = (i * 5 + j * 3 + 0 * 2 + 0) % 11 - 5;
  B = malloc(sizeof *B * (N + 4));
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++)
      B[i][j] = (double)((i * 4 + j * 7 + 0 * 5 + 1) % 17) / 8.0 - 1.0;
  for (i = 0; i < N + 4; i++)
    C[i] = (i * 7 + 0 * 3 + 0 * 2 + 2) % 11 - 5;
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++)
      D[i][j] = (double)((i * 6 + j * 7 + 0 * 5 + 3) % 17) / 8.0 - 1.0;
  s = 0.25;
  t = 3;
  f = 1.5f;
}

static void kernel(int n, int sz0, int C[n + 4])
{
  int i, j, k, m;

#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j < sz0; j++) {
      for (k = 0; k <= i; k++) {
        t = (t + (A[k + j + 1][j + i + 1]) % 1009) % 1009;
        s += B[-j + n - 1][-k + n - 1] * 2.0;
      }
      for (k = i; k >= 2; k--) {
        C[-j + n - 1] = (A[j + k - 1][k] + -1 * A[j][k - 1] - C[k]) % 1009;
        D[-j + n - 1][2] -= B[i + 1][k + 1] - B[i][k];
      }
      B[i + 1][j + i + 1] = B[i + 1][i];
    }
  }
  A[0][1] = (A[0][1] + (2 * A[2][2] - A[1][2]) % 1009) % 1009;
  for (i = 0; i < n; i++) {
    for (j = 0; j < n - 1; j++) {
      for (k = 0; k <= j; k++) {
        C[k + 1] = (A[-j + n - 1][-i + n - 1] + -2 * A[i][k + 1] - C[k]) % 1009;
      }
    }
  }
  for (i = 0; i < 2; i++) {
    for (j = 1; j < n - 1; j++) {
      for (k = 1; k < n - 1; k++) {
        A[j][k] = (A[j][k] + A[j - 1][k] + A[j + 1][k] + A[j][k - 1] + A[j][k + 1]) % 1009;
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
      printf("%d ", A[i][j]);
    }
  printf("\n");
  printf("begin dump: B\n");
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++) {
      printf("%.17g ", B[i][j]);
    }
  printf("\n");
  printf("begin dump: C\n");
  for (i = 0; i < N + 4; i++) {
    printf("%d ", C[i]);
  }
  printf("\n");
  printf("begin dump: D\n");
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++) {
      printf("%.17g ", D[i][j]);
    }
  printf("\n");
  printf("begin dump: s\n%.17g\n", s);
  printf("begin dump: t\n%d\n", t);
  printf("begin dump: f\n%.9g\n", f);
}

int main(void)
{
  init();
  kernel(N, SZ0, C);
  dump();
  return 0;
}
