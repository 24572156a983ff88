/* 2-D convolution with a 5x5 weight matrix, the tap loops inside the pixel loops. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 1121
#endif
#define N 512
#define K 5
static float in[N][N], out[N][N], w[K][K];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N - K + 1; i++)
    for (int j = 0; j < N - K + 1; j++) {
      out[i][j] = 0.0f;
      for (int ki = 0; ki < K; ki++)
        for (int kj = 0; kj < K; kj++)
          out[i][j] += in[i + ki][j + kj] * w[ki][kj];
    }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      in[i][j] = ((i * 3 + j * 7) % 31) / 31.0f;
      out[i][j] = 0.0f;
    }
  for (int ki = 0; ki < K; ki++)
    for (int kj = 0; kj < K; kj++) w[ki][kj] = (ki + kj + 1) / 125.0f;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) sum += out[i][j];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
