/* a[j] = b[j] + scalar*c[j] with a long index (the Triad kernel of J. McCalpin's STREAM benchmark, whose index is a ssize_t). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 36
#endif
#define N 2000000L
static double a[N], b[N], c[N];
static double scalar = 3.0;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (long j = 0; j < N; j++)
    a[j] = b[j] + scalar * c[j];
#pragma endscop
}
int main(void) {
  for (long j = 0; j < N; j++) {
    a[j] = 0.0;
    b[j] = (double)(j % 97) / 97.0;
    c[j] = (double)(j % 89) / 890.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (long j = 0; j < N; j += 7) sum += a[j];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
