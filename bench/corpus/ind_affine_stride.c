/* Induction folded into affine subscripts: a[2i+1] = 0.5 b[i] + a[2i]. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 51162
#endif
#define N 32000
static float a[N], b[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N / 2; i++)
    a[2 * i + 1] = b[i] * 0.5f + a[2 * i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = (i % 5) / 5.0f;
    b[i] = (i % 3) / 3.0f;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += a[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
