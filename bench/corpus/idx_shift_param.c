/* Reading ahead by a parameter: a[i] = b[i+k] - 0.5 b[i], with k an argument of the kernel. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 83517
#endif
#define N 32000
static float a[N], b[N];
static __attribute__((noinline)) void kernel(int k) {
#pragma scop
  for (int i = 0; i < N - k; i++)
    a[i] = b[i + k] - b[i] * 0.5f;
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = 0.0f;
    b[i] = (i % 19) / 19.0f;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(N / 4); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += a[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
