/* Forward substitution with a unit lower-triangular matrix (triangular loop, recurrence). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 2023
#endif
#define N 512
static double L[N][N], b[N], x[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++) {
    x[i] = b[i];
    for (int j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      L[i][j] = ((i + j) % 5) / (5.0 * N);
    }
  for (int i = 0; i < N; i++) { b[i] = (i % 9) / 9.0; x[i] = 0.0; }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += x[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
