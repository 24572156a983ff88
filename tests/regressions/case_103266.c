/* polyopt flags: --fixed-tile-size=4 */
/* polyopt fuzz program, seed 103266 (shrunk): isl generates loops for the 4x4-tiled schedule that skip S0[6..7, 2..4] */
#include <stdio.h>
#include <stdlib.h>

#define N 8

static double A[2 * N + 4][N + 4];
static double B[N + 4][N + 4];
static float **E;
static double s;
static int t;
static float f;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < 2 * N + 4; i++)
    for (j = 0; j < N + 4; j++)
      A[i][j] = (double)((i * 3 + j * 7 + 0 * 5 + 0) % 17) / 8.0 - 1.0;
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++)
      B[i][j] = (double)((i * 4 + j * 7 + 0 * 5 + 1) % 17) / 8.0 - 1.0;
  E = malloc(sizeof *E * (N + 4));
  for (i = 0; i < N + 4; i++) {
    E[i] = malloc(sizeof *E[i] * (N + 4));
  }
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++)
      E[i][j] = (float)((i * 7 + j * 7 + 0 * 5 + 4) % 17) / 8.0f - 1.0f;
  s = 0.25;
  t = 3;
  f = 1.5f;
}

static void kernel(int n)
{
  int i, j, k, m;

#pragma scop
  for (i = 0; i < n; i++) {
    if (i >= 4) {
      for (j = 2; j < n; j += 2) {
        A[j][j] += s * B[i + 1][j];
        A[i + 1][-j + n - 1] = B[i][i] - 0.5 * t;
      }
      for (j = i + 1; j < n - 1; j++) {
        if (i <= 4) {
          B[j - 1][i] = A[i + 1][j] - t;
        }
      }
      A[i + 1][i] += 3.0 * A[-i + n - 1][i + 1] - s * E[i][i];
    }
  }
#pragma endscop
}

static void dump(void)
{
  int i, j, k;

  printf("begin dump: A\n");
  for (i = 0; i < 2 * N + 4; i++)
    for (j = 0; j < N + 4; j++) {
      printf("%.17g ", A[i][j]);
    }
  printf("\n");
  printf("begin dump: B\n");
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++) {
      printf("%.17g ", B[i][j]);
    }
  printf("\n");
  printf("begin dump: E\n");
  for (i = 0; i < N + 4; i++)
    for (j = 0; j < N + 4; j++) {
      printf("%.17g ", E[i][j]);
    }
  printf("\n");
  printf("begin dump: s\n%.17g\n", s);
  printf("begin dump: t\n%d\n", t);
  printf("begin dump: f\n%.9g\n", f);
}

int main(void)
{
  init();
  kernel(N);
  dump();
  return 0;
}
