/* Swapping two vectors element by element through a scalar. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 77679
#endif
#define N 32000
static float a[N], b[N];
static float t;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++) {
    t = a[i];
    a[i] = b[i];
    b[i] = t;
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = (i % 5) / 5.0f;
    b[i] = (i % 9) / 9.0f;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += a[i] + 2.0 * b[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
