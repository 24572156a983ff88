/* polyopt flags:  */
/* polyopt fuzz program, seed 781019 */
#include <stdio.h>

#define N 6
#define SZ0 0
#define n N
#define sz0 SZ0

static int A[N + 4][N + 4];
static double B[N + 4];
static int E[2 * N + 4][2 * N + 4];
static double s;
static int t;
static float f;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++)
      A[i][j] = (i * 5 + j * 3 + 0 * 2 + 0) % 11 - 5;
  for (i = 0; i < N + 4; i++)
    B[i] = (double)((i * 4 + 0 * 7 + 0 * 5 + 1) % 17) / 8.0 - 1.0;
  for (i = 0; i < 2 * N + 4; i++)
    for (j = 0; j < 2 * N + 4; j++)
      E[i][j] = (i * 9 + j * 3 + 0 * 2 + 4) % 11 - 5;
  s = 0.25;
  t = 3;
  f = 1.5f;
}

static void kernel(void)
{
  int i, j, k, m;

#pragma scop
  for (i = n - 1; i >= 0; i--) {
    for (j = 0; j < 2; j++) {
      for (k = 0; k < n; k++) {
        if (2 * k >= n) {
          for (m = 0; m < 3; m++) {
            B[i] += B[-j + n - 1] * t - -0.75;
          }
          B[k] += A[2][k] - 3.0 * B[j];
        }
      }
      for (k = 2; k < i; k++) {
        for (m = 0; m < sz0; m++) {
          if (2 * m >= n) {
            B[i + 1] = s - E[i][k + 1];
          }
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
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++) {
      printf("%d ", A[i][j]);
    }
  printf("\n");
  printf("begin dump: B\n");
  for (i = 0; i < N + 4; i++) {
    printf("%#.17g ", B[i]);
  }
  printf("\n");
  printf("begin dump: E\n");
  for (i = 0; i < 2 * N + 4; i++)
    for (j = 0; j < 2 * N + 4; j++) {
      printf("%d ", E[i][j]);
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
