/* polyopt flags: --fuse=none */
/* polyopt fuzz program, seed 14534 */
#include <stdio.h>

#define N 6
#define n N

static double A[N + 4];
static double s;
static int t;

static void init(void)
{
  int i, j, k;

  for (i = 0; i < N + 4; i++)
    A[i] = (double)((i * 3 + 0 * 7 + 0 * 5 + 0) % 17) / 8.0 - 1.0;
  s = 0.25;
  t = 3;
}

static void kernel(void)
{
  int i, j, k, m;

#pragma scop
  for (i = n - 1; i >= 2; i--) {
    for (j = 0; j < n; j += 2) {
      for (k = 0; k < j; k++) {
        for (m = j; m <= j + 2 && m < n; m++) {
          A[m + 1] = A[2];
        }
        for (m = j; m <= j + 2 && m < n; m++) {
          A[i + k - 1] = A[-m + n - 1] - 3.0 * A[i];
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
  for (i = 0; i < N + 4; i++) {
    printf("%.17g ", A[i]);
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
