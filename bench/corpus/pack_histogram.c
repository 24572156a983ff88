/* Histogram: h[key[i]] += 1 through a data-dependent subscript, bins cleared first. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 15390
#endif
#define N 32000
#define B 256
static int h[B], key[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int k = 0; k < B; k++)
    h[k] = 0;
  for (int i = 0; i < N; i++)
    h[key[i]] += 1;
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    key[i] = (i * 31 + i / 7) % B;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int k = 0; k < B; k++) sum += h[k] * (k % 10);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
