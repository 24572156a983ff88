/* An in-place shift that must run downwards: a[i] = 0.5 a[i-1] + b[i] for i from n-1 to 1. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 68350
#endif
#define N 32000
static float a[N], b[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = N - 1; i >= 1; i--)
    a[i] = a[i - 1] * 0.5f + b[i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = (i % 6) / 6.0f;
    b[i] = (i % 10) / 20.0f;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += a[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
