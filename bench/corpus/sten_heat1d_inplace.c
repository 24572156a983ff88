/* 1-D heat equation in place with the time loop inside the region. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 400
#endif
#define N 32000
#define T 4
static float a[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      a[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = (i % 16) / 16.0f;
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
