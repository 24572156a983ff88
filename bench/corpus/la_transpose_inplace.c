/* In-place transpose of a small matrix: swaps over the upper triangle. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 2001
#endif
#define N 256
static float aa[N][N];
static float t;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = i + 1; j < N; j++) {
      t = aa[i][j];
      aa[i][j] = aa[j][i];
      aa[j][i] = t;
    }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = ((i * 7 + j * 3) % 19) / 19.0f;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) sum += aa[i][j] * (j % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
