/* The index of the first element of largest magnitude, strict > so the first is kept, int index (the reference BLAS routine IDAMAX, netlib). */
#include <stdio.h>
#include <time.h>
#include <math.h>
#ifndef REPS
#define REPS 4300
#endif
#define N 32000
static double dx[N];
static double dmax, total;
static int iamax;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  iamax = 0;
  dmax = fabs(dx[0]);
  for (int i = 1; i < N; i++)
    if (fabs(dx[i]) > dmax) {
      iamax = i;
      dmax = fabs(dx[i]);
    }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) dx[i] = ((i * 7919 + 123) % 10007 - 5003) / 5003.0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); total = 0.5 * total + iamax + dmax; }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  sum = total;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
