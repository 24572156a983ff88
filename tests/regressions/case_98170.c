/* polyopt flags: --notile */
/* polyopt fuzz program, seed 98170 */
#include <stdio.h>

#define N 5
#define SZ0 0
#define SZ1 1
#define n N
#define sz0 SZ0
#define sz1 SZ1

static int A[N + 4][N + 4];
static double B[2 * N + 4][2 * N + 4];
static double H[SZ0 + 1][SZ1];
static double I[SZ0 + 1][SZ1 + 1];
static double s;
static int t;
static float f;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++)
      A[i][j] = (i * 5 + j * 3 + 0 * 2 + 0) % 11 - 5;
  for (i = 0; i < 2 * N + 4; i++)
    for (j = 0; j < 2 * N + 4; j++)
      B[i][j] = (double)((i * 4 + j * 7 + 0 * 5 + 1) % 17) / 8.0 - 1.0;
  for (i = 0; i < SZ0 + 1; i++)
    for (j = 0; j < SZ1; j++)
      H[i][j] = (double)((i * 10 + j * 7 + 0 * 5 + 7) % 17) / 8.0 - 1.0;
  for (i = 0; i < SZ0 + 1; i++)
    for (j = 0; j < SZ1 + 1; j++)
      I[i][j] = (double)((i * 11 + j * 7 + 0 * 5 + 8) % 17) / 8.0 - 1.0;
  s = 0.25;
  t = 3;
  f = 1.5f;
}

static void kernel(void)
{
  int i, j, k, m;

#pragma scop
  for (i = n - 3; i >= 0; i--) {
    for (j = i; j <= i + 2 && j < n; j++) {
      A[i + j][j] = (A[i + 1][i] + 0 * A[j][j] - 0 * A[2][j + 1]) % 1009;
    }
  }
  for (i = 0; i < sz0; i++) {
    for (j = 0; j < sz1; j++) {
      I[i][j] = H[i][j] + 0.5 * I[i][j];
    }
  }
  for (i = 2; i < n; i++) {
    for (j = i; j <= i + 2 && j < n; j++) {
      for (k = n - 1; k >= 0; k--) {
        B[k][j - 1] = B[2 * i][j - 1];
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
  for (i = 0; i < 2 * N + 4; i++)
    for (j = 0; j < 2 * N + 4; j++) {
      printf("%#.17g ", B[i][j]);
    }
  printf("\n");
  printf("begin dump: H\n");
  for (i = 0; i < SZ0 + 1; i++)
    for (j = 0; j < SZ1; j++) {
      printf("%#.17g ", H[i][j]);
    }
  printf("\n");
  printf("begin dump: I\n");
  for (i = 0; i < SZ0 + 1; i++)
    for (j = 0; j < SZ1 + 1; j++) {
      printf("%#.17g ", I[i][j]);
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
