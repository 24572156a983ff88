/* Reading one vector in reverse: a[i] = b[n-1-i] c[i] + d[i]. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 12231
#endif
#define N 32000
static double a[N], b[N], c[N], d[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    a[i] = b[N - 1 - i] * c[i] + d[i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = 0.0;
    b[i] = (i % 17) / 17.0;
    c[i] = (i % 4) / 4.0;
    d[i] = (i % 9) / 90.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += a[i] * (i % 5);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
