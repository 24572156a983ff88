/* 1-D convolution with 16 taps, the tap loop outside: out[i] += w[k] in[i+k] over k. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 9067
#endif
#define N 32000
#define K 16
static float in[N], out[N], w[K];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    out[i] = 0.0f;
  for (int k = 0; k < K; k++)
    for (int i = 0; i < N - K; i++)
      out[i] += w[k] * in[i + k];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    in[i] = ((i * 11) % 19) / 19.0f;
    out[i] = 0.0f;
  }
  for (int k = 0; k < K; k++) w[k] = (k % 5 + 1) / 50.0f;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += out[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
