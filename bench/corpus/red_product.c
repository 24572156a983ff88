/* Product reduction over factors close to one. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 42727
#endif
#define N 4096
static double a[N];
static double p;
static double total;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  p = 1.0;
  for (int i = 0; i < N; i++)
    p *= a[i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = 1.0 + ((i % 11) - 5) * 0.0001;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); total += p; }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  sum = total;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
