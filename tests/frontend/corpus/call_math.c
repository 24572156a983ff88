/* expect: optimized */
/* A callee that calls sqrt and fabs on its array elements, with a scalar argument. */
#include <math.h>
#include <stdio.h>

#define N 100

static double x[N], y[N], z[N];

void norm_at(double *out, const double *in, int i, double scale)
{
  out[i] = scale * sqrt(fabs(in[i]) + 1.0);
}

int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    x[i] = (double) ((i * 7) % 11) - 5.0;
#pragma scop
  for (i = 0; i < N; i++)
    norm_at(y, x, i, 2.0);
  for (i = 0; i < N; i++)
    z[i] = y[i] + x[i];
#pragma endscop
  for (i = 0; i < N; i += 9)
    printf("%.6f %.6f\n", y[i], z[i]);
  return 0;
}
