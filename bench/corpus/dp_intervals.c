/* Triangular table, cheapest bracketing of a matrix chain: each cell the least cost over its splits. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 14
#endif
#define N 320
static double cost[N][N];
static double dims[N + 1];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = N - 1; i >= 0; i--)
    for (int j = i + 1; j < N; j++) {
      cost[i][j] = 1.0e30;
      for (int k = i; k < j; k++)
        cost[i][j] = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1] < cost[i][j]
                         ? cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                         : cost[i][j];
    }
#pragma endscop
}
int main(void) {
  for (int i = 0; i <= N; i++) dims[i] = (i * 13) % 10 + 1;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) cost[i][j] = 0.0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = i; j < N; j++) sum += cost[i][j];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
