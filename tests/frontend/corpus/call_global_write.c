/* expect: declined: call to 'count' as a statement may have side effects: it assigns 'calls' */
/* A callee that writes a global is not summarized. */
#include <stdio.h>

#define N 30

static int calls;
static double a[N];

void count(double *x, int i)
{
  x[i] = x[i] * 2.0;
  calls = calls + 1;
}

int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = (double) i;
#pragma scop
  for (i = 0; i < N; i++)
    count(a, i);
#pragma endscop
  printf("%d %.6f\n", calls, a[N - 1]);
  return 0;
}
