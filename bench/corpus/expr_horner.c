/* A polynomial of degree four evaluated per element by Horner's rule. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 42321
#endif
#define N 32000
static double x[N], y[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    y[i] = (((0.1 * x[i] + 0.2) * x[i] - 0.3) * x[i] + 0.4) * x[i] + 0.5;
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = (i % 21) / 10.0 - 1.0;
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
