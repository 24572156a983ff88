/* An induction variable counting down from n-1, reading one vector backwards. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 30777
#endif
#define N 32000
static double a[N], b[N], c[N];
static int k;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  k = N - 1;
  for (int i = 0; i < N; i++) {
    a[i] = b[k] * c[i];
    k--;
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = 0.0;
    b[i] = (i % 13) / 13.0;
    c[i] = (i % 4) / 4.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += a[i] * (i % 3);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
