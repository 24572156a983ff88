/* y += a*x(indx): an AXPY through an index array, unrolled by hand by 4 with no clean-up loop (the sparse BLAS DGTHR and DAXPY in one, unrolled as netlib's DAXPY). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 5100
#endif
#define N 16000
#define NB 50000
static double a[N], b[NB];
static int ip[N];
static double alpha;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i += 4) {
    a[i] += alpha * b[ip[i]];
    a[i + 1] += alpha * b[ip[i + 1]];
    a[i + 2] += alpha * b[ip[i + 2]];
    a[i + 3] += alpha * b[ip[i + 3]];
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < NB; i++) b[i] = ((i * 3) % 17) / 17.0;
  for (int i = 0; i < N; i++) {
    a[i] = (i % 9) / 9.0;
    ip[i] = (int)(((long)i * 7919 + 13) % NB);
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { alpha = (rep % 3 == 0) ? 0.5 : -0.25; kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += a[i] * (i % 5 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
