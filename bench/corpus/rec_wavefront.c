/* Two-neighbour recurrence a[i][j] from a[i-1][j] and a[i][j-1]: a wavefront (skewing) shape. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 317
#endif
#define N 500
static double a[N][N], b[N][N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 1; i < N; i++)
    for (int j = 1; j < N; j++)
      a[i][j] = 0.3 * (a[i - 1][j] + a[i][j - 1]) + b[i][j];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = ((i + j) % 5) / 5.0;
      b[i][j] = ((i * 3 + j) % 17) / 170.0;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) sum += a[i][j];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
