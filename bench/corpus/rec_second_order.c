/* Second-order recurrence x[i] = 0.5 x[i-1] - 0.25 x[i-2] + b[i] (an IIR filter). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 2000
#endif
#define N 32000
static double x[N], b[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 2; i < N; i++)
    x[i] = 0.5 * x[i - 1] - 0.25 * x[i - 2] + b[i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = 0.0;
    b[i] = ((i * 5) % 23) / 23.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += x[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
