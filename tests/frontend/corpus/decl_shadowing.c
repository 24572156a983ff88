/* expect: optimized. A declaration in the body shadows the name of the loop's bound. */
#include <stdio.h>
double a[200], b[200];
static void kernel(int m)
{
  int i;
#pragma scop
  for (i = 0; i < m; i++) {
    double m = a[i] * 3.0;
    b[i] = m + 1.0;
  }
#pragma endscop
}
int main(void)
{
  int i;
  for (i = 0; i < 200; i++)
    a[i] = (i % 6) * 0.5;
  kernel(180);
  for (i = 0; i < 200; i += 19)
    printf("%d %.6f\n", i, b[i]);
  return 0;
}
