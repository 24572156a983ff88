/* First-order recurrence run backwards: x[i] = x[i+1] c[i] + d[i] for i from n-2 down to 0. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 2000
#endif
#define N 32000
static float x[N], c[N], d[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = N - 2; i >= 0; i--)
    x[i] = x[i + 1] * c[i] + d[i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = (i % 3) / 3.0f;
    c[i] = (i % 9) / 10.0f;
    d[i] = ((i * 7) % 5) / 50.0f;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += x[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
