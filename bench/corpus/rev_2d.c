/* A 2-D nest with both loops reversed, contracting in place. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 2108
#endif
#define N 512
static double aa[N][N], bb[N][N], cc[N][N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = N - 1; i >= 0; i--)
    for (int j = N - 1; j >= 0; j--)
      aa[i][j] = bb[i][j] * cc[i][j] + aa[i][j] * 0.5;
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = 0.0;
      bb[i][j] = ((i + j) % 9) / 9.0;
      cc[i][j] = ((i * 2 + j) % 5) / 5.0;
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
