/* A long float expression over five 1000x1000 arrays. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 717
#endif
#define N 1000
static float aa[N][N], bb[N][N], cc[N][N], dd[N][N], ee[N][N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      aa[i][j] = bb[i][j] * cc[i][j] + dd[i][j] * ee[i][j] - bb[i][j] * 0.25f;
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = 0.0f;
      bb[i][j] = ((i + j) % 3) / 3.0f;
      cc[i][j] = ((i + j) % 5) / 5.0f;
      dd[i][j] = ((i * j) % 7) / 7.0f;
      ee[i][j] = ((2 * i + j) % 11) / 11.0f;
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
