/* Averaging each element with its mirror image in place: a[i] = (a[i] + a[n-1-i]) / 2. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 15491
#endif
#define N 32000
static float a[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    a[i] = 0.5f * (a[i] + a[N - 1 - i]);
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = (i % 23) / 23.0f;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += a[i] * (i % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
