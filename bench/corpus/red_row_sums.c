/* Row sums of a large double matrix. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 131
#endif
#define N 1000
static double aa[N][N], r[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++) {
    r[i] = 0.0;
    for (int j = 0; j < N; j++)
      r[i] += aa[i][j];
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = ((i + 3 * j) % 17) / 17.0;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += r[i] * (i % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
