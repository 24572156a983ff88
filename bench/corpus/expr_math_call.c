/* Calls to sqrt in an elementwise expression (the hypotenuse of two vectors). */
#include <stdio.h>
#include <time.h>
#include <math.h>
#ifndef REPS
#define REPS 2000
#endif
#define N 32000
static double x[N], z[N], y[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    y[i] = sqrt(x[i] * x[i] + z[i] * z[i]) + 0.5 * x[i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = (i % 17) / 17.0;
    z[i] = (i % 5) / 5.0;
    y[i] = 0.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += y[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
