/* Mixed types: integers converted to float and scaled, added to a float vector. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 73861
#endif
#define N 32000
static float a[N], b[N];
static int ib[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    a[i] = (float)ib[i] * 0.001f + b[i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = 0.0f;
    b[i] = (i % 9) / 9.0f;
    ib[i] = (i * 11) % 500;
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
