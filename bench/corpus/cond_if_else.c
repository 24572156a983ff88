/* If-else on a data comparison: c[i] = |a[i] - b[i]| written as two branches. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 38474
#endif
#define N 32000
static double a[N], b[N], c[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    if (a[i] >= b[i])
      c[i] = a[i] - b[i];
    else
      c[i] = b[i] - a[i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = (i % 13) / 13.0;
    b[i] = (i % 7) / 7.0;
    c[i] = 0.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += c[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
