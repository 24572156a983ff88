/* A dot product unrolled by hand by 5 with a clean-up loop first (the reference BLAS routine DDOT, netlib). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 5100
#endif
#define N 20002
static double dx[N], dy[N];
static double dtemp, total;
static int m;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  dtemp = 0.0;
  m = N % 5;
  for (int i = 0; i < m; i++)
    dtemp = dtemp + dx[i] * dy[i];
  for (int i = m; i < N; i += 5)
    dtemp = dtemp + dx[i] * dy[i] + dx[i + 1] * dy[i + 1] + dx[i + 2] * dy[i + 2] + dx[i + 3] * dy[i + 3] +
            dx[i + 4] * dy[i + 4];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    dx[i] = ((i * 17) % 31) / 31.0 - 0.25;
    dy[i] = ((i * 5) % 13) / 13.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); total = 0.5 * total + dtemp; }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  sum = total;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
