/* FIR filter y[i] = sum_k h[k] x[i-k]: the input is read backwards as k grows. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 2683
#endif
#define N 32000
#define K 32
static double x[N], y[N], h[K];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = K - 1; i < N; i++) {
    y[i] = 0.0;
    for (int k = 0; k < K; k++)
      y[i] += h[k] * x[i - k];
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = ((i * 17) % 23) / 23.0 - 0.5;
    y[i] = 0.0;
  }
  for (int k = 0; k < K; k++) h[k] = 1.0 / (k + 2);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += y[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
