/* expect: optimized. Two loops declare 't', and a 't' outside the region is read in it and after it:
   three different objects, renamed apart. */
#include <stdio.h>
#define N 300
double a[N], b[N], c[N];
int main(void)
{
  int i;
  double t = 3.0;
  for (i = 0; i < N; i++)
    a[i] = (i % 10) * 0.3;
#pragma scop
  for (i = 0; i < N; i++) {
    double t = a[i] * a[i];
    b[i] = t - 1.0;
  }
  for (i = 0; i < N; i++) {
    double t = b[i] + a[i];
    c[i] = t * 0.5;
  }
  a[0] = t;
#pragma endscop
  printf("%.6f %.6f %.6f %.6f\n", a[0], b[7], c[N - 1], t);
  return 0;
}
