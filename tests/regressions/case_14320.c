/* polyopt flags:  */
/* polyopt fuzz program, seed 14320 */
#include <stdio.h>

#define N 10
#define n N

static double s;
static int t;

static void init(void)
{
  int i, j, k;

  s = 0.25;
  t = 3;
}

static void kernel(void)
{
  int i, j, k, m;

#pragma scop
  for (i = n - 3; i >= 0; i--) {
    if (i % 2 == 1) {
      for (j = i; j <= i + 2 && j < n; j++) {
        t = (t + (t - t) % 1009) % 1009;
      }
    }
  }
  for (i = 0; i < 4; i++) {
    for (j = i; j <= i + 2 && j < n; j++) {
      t = (t + (t) % 1009) % 1009;
    }
  }
#pragma endscop
}

static void dump(void)
{
  int i, j, k;

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
