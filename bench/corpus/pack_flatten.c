/* Packing a matrix row by row into a flat vector, scaled: v[i*N+j] = 2 aa[i][j]. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 801
#endif
#define N 1000
static double aa[N][N], v[N * N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      v[i * N + j] = 2.0 * aa[i][j];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = ((i + j * 5) % 19) / 19.0;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N * N; i++) sum += v[i] * (i % 3);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
