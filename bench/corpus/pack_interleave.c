/* Interleaving the sum and difference of two vectors into one: c[2i], c[2i+1]. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 11431
#endif
#define N 32000
static double a[N], b[N], c[2 * N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++) {
    c[2 * i] = a[i] + b[i];
    c[2 * i + 1] = a[i] - b[i];
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = (i % 11) / 11.0;
    b[i] = (i % 7) / 14.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < 2 * N; i++) sum += c[i] * (i % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
