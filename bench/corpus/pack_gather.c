/* Gather through an index vector: a[i] = b[idx[i]] c[i]. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 9982
#endif
#define N 32000
static float a[N], b[N], c[N];
static int idx[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    a[i] = b[idx[i]] * c[i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = 0.0f;
    b[i] = (i % 17) / 17.0f;
    c[i] = (i % 3 + 1) / 3.0f;
    idx[i] = (int)((i * 7919L) % N);
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += a[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
