/* expect: declined: call to 'puts' as a statement may have side effects: its body is not in this file */
/* A call to a function whose body is elsewhere keeps its decline. */
#include <stdio.h>

#define N 3

static double a[N];

int main(void)
{
  int i;
#pragma scop
  for (i = 0; i < N; i++) {
    a[i] = i;
    puts("x");
  }
#pragma endscop
  printf("%.6f\n", a[N - 1]);
  return 0;
}
