/* Rank-1 update with decay: A[i][j] = 0.5 A[i][j] + x[i] y[j]. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 1069
#endif
#define N 1000
static double A[N][N], x[N], y[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = A[i][j] * 0.5 + x[i] * y[j];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = ((i + j) % 3) / 3.0;
    }
  for (int i = 0; i < N; i++) { x[i] = (i % 7) / 7.0; y[i] = (i % 4) / 4.0; }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) sum += A[i][j];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
