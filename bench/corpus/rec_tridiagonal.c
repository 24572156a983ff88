/* Forward sweep of a tridiagonal solve: x[i] = (d[i] - l[i] x[i-1]) r[i]. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 1500
#endif
#define N 32000
static double x[N], d[N], l[N], r[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  x[0] = d[0] * r[0];
  for (int i = 1; i < N; i++)
    x[i] = (d[i] - l[i] * x[i - 1]) * r[i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = 0.0;
    d[i] = ((i * 3) % 11) / 11.0;
    l[i] = (i % 5) / 10.0;
    r[i] = 0.5 + (i % 3) / 6.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += x[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
