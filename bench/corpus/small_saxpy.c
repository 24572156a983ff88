/* saxpy-like update with decay on 256 floats, called a great many times. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 19804195
#endif
#define N 256
static float x[N], y[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    y[i] = 0.75f * x[i] + y[i] * 0.5f;
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = (i % 9) / 9.0f;
    y[i] = 0.0f;
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
