/* expect: declined: the data-dependent condition reads 'flag', which a statement it guards writes */
/* A guarded block that clears the flag its condition reads: each statement would test it again. */
#include <stdio.h>

#define N 64

static int flag[N];
static double a[N], b[N];

int main(void)
{
  int i;
  for (i = 0; i < N; i++) {
    flag[i] = i % 3 == 0;
    a[i] = (double) i;
  }
#pragma scop
  for (i = 0; i < N; i++)
    if (flag[i]) {
      flag[i] = 0;
      b[i] = a[i] + 1.0;
    }
#pragma endscop
  for (i = 0; i < N; i += 5)
    printf("%d %.6f\n", flag[i], b[i]);
  return 0;
}
