/* Constant offsets in two dimensions: aa[i][j] = bb[i+1][j+2] - bb[i][j]. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 495
#endif
#define N 1000
static double aa[N][N], bb[N][N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N - 1; i++)
    for (int j = 0; j < N - 2; j++)
      aa[i][j] = bb[i + 1][j + 2] - bb[i][j];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = 0.0;
      bb[i][j] = ((i * 5 + j * 3) % 29) / 29.0;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) sum += aa[i][j] * (j % 4 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
