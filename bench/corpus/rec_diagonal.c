/* Recurrence along the diagonal of a small double matrix: row i reads row i-1 shifted by one. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 18033
#endif
#define N 256
static double aa[N][N], bb[N][N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 1; i < N; i++)
    for (int j = 1; j < N; j++)
      aa[i][j] = 0.5 * aa[i - 1][j - 1] + bb[i][j];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = ((i * 7 + j) % 13) / 13.0;
      bb[i][j] = ((i + j * 3) % 11) / 110.0;
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
