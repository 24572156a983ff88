/* Column sums of a large float matrix (the reduction runs over the outer loop). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 3069
#endif
#define N 1000
static float aa[N][N], c[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int j = 0; j < N; j++)
    c[j] = 0.0f;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      c[j] += aa[i][j];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = ((2 * i + j) % 13) / 13.0f;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int j = 0; j < N; j++) sum += c[j] * (j % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
