/* Recurrence down the columns of a large float matrix; the inner loop over a row is parallel. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 1005
#endif
#define N 1000
static float aa[N][N], bb[N][N], cc[N][N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 1; i < N; i++)
    for (int j = 0; j < N; j++)
      aa[i][j] = aa[i - 1][j] * cc[i][j] + bb[i][j];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = 0.0f;
      bb[i][j] = ((i + 2 * j) % 9) / 90.0f;
      cc[i][j] = ((i * j) % 5) / 6.0f;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) sum += aa[i][j];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
