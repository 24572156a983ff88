/* Matrix-vector product through a scalar accumulator per row, blended into y. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 1101
#endif
#define N 512
static double aa[N][N], x[N], y[N];
static double s;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++) {
    s = 0.0;
    for (int j = 0; j < N; j++)
      s += aa[i][j] * x[j];
    y[i] = s * 0.5 + y[i] * 0.5;
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = ((i + 2 * j) % 13) / 130.0;
    }
  for (int i = 0; i < N; i++) { x[i] = (i % 7) / 7.0; y[i] = 0.0; }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += y[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
