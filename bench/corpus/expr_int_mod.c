/* Integer arithmetic with a remainder: a hash-like a[i] = (31 b[i] + c[i]) % 1021. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 46142
#endif
#define N 32000
static int a[N], b[N], c[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    a[i] = (b[i] * 31 + c[i]) % 1021;
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = 0;
    b[i] = (i * 7) % 1000;
    c[i] = (i * 13) % 977;
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
