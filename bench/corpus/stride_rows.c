/* Every other row of a large float matrix, reading the next row. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 1627
#endif
#define N 1000
static float aa[N][N], bb[N][N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N - 1; i += 2)
    for (int j = 0; j < N; j++)
      aa[i][j] = aa[i + 1][j] * 0.5f + bb[i][j];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = ((i + j) % 8) / 8.0f;
      bb[i][j] = ((i * j) % 3) / 3.0f;
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
