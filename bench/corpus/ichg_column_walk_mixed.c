/* Column walk reading one matrix by columns and another by rows (for j, for i). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 153
#endif
#define N 1000
static float aa[N][N], bb[N][N], cc[N][N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      cc[i][j] = aa[i][j] + bb[j][i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = ((i + 3 * j) % 11) / 11.0f;
      bb[i][j] = ((i * 7 + j) % 13) / 13.0f;
      cc[i][j] = 0.0f;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) sum += cc[i][j] * (j % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
