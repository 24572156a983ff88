/* expect: optimized. A condition that reads a temporary declared in the loop body: a data-dependent guard. */
#include <stdio.h>
double a[300], b[300];
int main(void) {
  int i;
  for (i = 0; i < 300; i++) a[i] = (i % 7) - 3.0;
#pragma scop
  for (i = 0; i < 300; i++) {
    double t = a[i] * 2;
    if (t > 0)
      b[i] = t;
  }
#pragma endscop
  double s = 0;
  for (i = 0; i < 300; i++) s += b[i] * (i % 5);
  printf("%g\n", s);
  return 0;
}
