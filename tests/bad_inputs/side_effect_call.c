#include <stdio.h>
/* printf inside an expression. */
void kernel(int n, int a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = printf("%d\n", i);
#pragma endscop
}
