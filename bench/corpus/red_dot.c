/* Dot product of two double vectors. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 6000
#endif
#define N 32000
static double a[N], b[N];
static double s;
static double total;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  s = 0.0;
  for (int i = 0; i < N; i++)
    s += a[i] * b[i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = (i % 7) / 7.0;
    b[i] = (i % 3) / 3.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); total += s; }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  sum = total;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
