/* A row recurrence and an independent product in one 2-D nest: a distribution candidate. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 523
#endif
#define N 512
static double aa[N][N], bb[N][N], cc[N][N], dd[N][N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 1; j < N; j++) {
      aa[i][j] = aa[i][j - 1] * 0.5 + bb[i][j];
      cc[i][j] = bb[i][j] * dd[i][j];
    }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = ((i + j) % 3) / 3.0;
      bb[i][j] = ((i * 3 + j) % 7) / 7.0;
      cc[i][j] = 0.0;
      dd[i][j] = ((i + 5 * j) % 4) / 4.0;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) sum += aa[i][j] + cc[i][j];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
