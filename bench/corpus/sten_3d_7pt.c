/* 3-D seven-point stencil, out of place, on a 96^3 float grid. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 915
#endif
#define N 96
static float in[N][N][N], out[N][N][N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      for (int k = 1; k < N - 1; k++)
        out[i][j][k] = 0.4f * in[i][j][k] + 0.1f * (in[i - 1][j][k] + in[i + 1][j][k] + in[i][j - 1][k]
                       + in[i][j + 1][k] + in[i][j][k - 1] + in[i][j][k + 1]);
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++) {
        in[i][j][k] = ((i + 2 * j + 3 * k) % 13) / 13.0f;
        out[i][j][k] = 0.0f;
      }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++) sum += out[i][j][k];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
