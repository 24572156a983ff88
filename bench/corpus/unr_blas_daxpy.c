/* y += a*x unrolled by hand by 4, the clean-up loop first (the reference BLAS routine DAXPY, netlib). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 48000
#endif
#define N 10003
static double dx[N], dy[N];
static double da;
static __attribute__((noinline)) void kernel(void) {
  int m = N % 4;
#pragma scop
  for (int i = 0; i < m; i++)
    dy[i] = dy[i] + da * dx[i];
  for (int i = m; i < N; i += 4) {
    dy[i] = dy[i] + da * dx[i];
    dy[i + 1] = dy[i + 1] + da * dx[i + 1];
    dy[i + 2] = dy[i + 2] + da * dx[i + 2];
    dy[i + 3] = dy[i + 3] + da * dx[i + 3];
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    dx[i] = ((i * 13) % 29) / 29.0;
    dy[i] = ((i * 7) % 11) / 11.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { da = (rep % 3 == 0) ? 0.5 : -0.25; kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += dy[i] * (i % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
