/* A long double expression over ten arrays with a division. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 4570
#endif
#define N 32000
static double a[N], b[N], c[N], d[N], e[N], f[N], g[N], h[N], p[N], q[N], r[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    a[i] = (b[i] + c[i]) * (d[i] - e[i]) / (1.0 + f[i] * f[i]) + g[i] * h[i] - p[i] * q[i] * 0.5 + r[i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = 0.0;
    b[i] = (i % 3) / 3.0;
    c[i] = (i % 5) / 5.0;
    d[i] = (i % 7) / 7.0;
    e[i] = (i % 11) / 11.0;
    f[i] = (i % 13) / 13.0;
    g[i] = (i % 4) / 4.0;
    h[i] = (i % 6) / 6.0;
    p[i] = (i % 8) / 8.0;
    q[i] = (i % 9) / 9.0;
    r[i] = (i % 10) / 10.0;
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
