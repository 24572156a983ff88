/* A loop-invariant factor computed once in the region from array elements. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 26332
#endif
#define N 32000
static double a[N], b[N], c[4], d[N];
static double s;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  s = c[0] * c[1] + c[2];
  for (int i = 0; i < N; i++)
    a[i] = b[i] * s + d[i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = 0.0;
    b[i] = (i % 11) / 11.0;
    d[i] = (i % 3) / 30.0;
  }
  for (int k = 0; k < 4; k++) c[k] = (k + 1) / 4.0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += a[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
