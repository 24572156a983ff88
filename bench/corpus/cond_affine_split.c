/* An affine condition on the iterator inside a 2-D nest (a loop-splitting candidate). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 384
#endif
#define N 1000
static double aa[N][N], bb[N][N], cc[N][N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      if (j < N / 2)
        aa[i][j] = bb[i][j] * 2.0;
      else
        aa[i][j] = bb[i][j] + cc[i][j];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = 0.0;
      bb[i][j] = ((i + j) % 7) / 7.0;
      cc[i][j] = ((i * j) % 5) / 5.0;
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
