/* Scaling a vector in place, unrolled by hand by 5 with a clean-up loop first (the reference BLAS routine SSCAL, netlib). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 32000
#endif
#define N 32003
static float sx[N];
static float sa;
static __attribute__((noinline)) void kernel(void) {
  int m = N % 5;
#pragma scop
  for (int i = 0; i < m; i++)
    sx[i] = sa * sx[i];
  for (int i = m; i < N; i += 5) {
    sx[i] = sa * sx[i];
    sx[i + 1] = sa * sx[i + 1];
    sx[i + 2] = sa * sx[i + 2];
    sx[i + 3] = sa * sx[i + 3];
    sx[i + 4] = sa * sx[i + 4];
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) sx[i] = ((i * 11) % 23) / 23.0f - 0.5f;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { sa = (rep % 3 == 2) ? 0.25f : 2.0f; kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += sx[i] * (i % 4 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
