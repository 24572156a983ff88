/* A scalar temporary reused by two statements in a loop (a scalar-expansion candidate). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 48900
#endif
#define N 32000
static float a[N], b[N], c[N], d[N], e[N];
static float t;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++) {
    t = a[i] + b[i];
    c[i] = t * t;
    d[i] = t * e[i];
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = (i % 5) / 5.0f;
    b[i] = (i % 3) / 6.0f;
    c[i] = 0.0f;
    d[i] = 0.0f;
    e[i] = (i % 7) / 7.0f;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += c[i] + d[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
