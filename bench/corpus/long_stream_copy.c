/* c[j] = a[j] with a size_t index (the Copy kernel of J. McCalpin's STREAM benchmark). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 68
#endif
#define N 2000000
static double a[N], c[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (size_t j = 0; j < N; j++)
    c[j] = a[j];
#pragma endscop
}
int main(void) {
  for (size_t j = 0; j < N; j++) {
    a[j] = (double)(j % 101) / 101.0;
    c[j] = 0.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (size_t j = 0; j < N; j += 7) sum += c[j];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
