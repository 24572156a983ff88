/* Clenshaw's recurrence for a Chebyshev series of 100 terms through sv, d and dd, at many points (Numerical Recipes' chebev). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 1500
#endif
#define M 100
#define NP 256
#define XA (-1.0)
#define XB 2.0
static double c[M], xs[NP], f[NP];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int p = 0; p < NP; p++) {
    double d = 0.0, dd = 0.0;
    double y = (2.0 * xs[p] - XA - XB) / (XB - XA);
    double y2 = 2.0 * y;
    for (int j = M - 1; j >= 1; j--) {
      double sv = d;
      d = y2 * d - dd + c[j];
      dd = sv;
    }
    f[p] = y * d - dd + 0.5 * c[0];
  }
#pragma endscop
}
int main(void) {
  for (int j = 0; j < M; j++) c[j] = (((j * 7) % 11) - 5) / (11.0 * (j + 1));
  for (int p = 0; p < NP; p++) xs[p] = XA + (XB - XA) * p / (NP - 1.0);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int p = 0; p < NP; p++) sum += f[p] * (p % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
