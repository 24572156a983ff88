/* Unpacking a dense vector into the places where a mask is set, zeros elsewhere. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 7915
#endif
#define N 32000
static float packed[N], out[N];
static int mask[N];
static int j;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  j = 0;
  for (int i = 0; i < N; i++)
    if (mask[i] > 0) {
      out[i] = packed[j] * 0.5f;
      j++;
    } else
      out[i] = 0.0f;
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    packed[i] = (i % 13) / 13.0f;
    out[i] = 0.0f;
    mask[i] = (i * 5) % 3;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += out[i] * (i % 5);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
