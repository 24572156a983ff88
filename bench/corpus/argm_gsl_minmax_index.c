/* The minimum and the maximum with their first indices in one strided pass, size_t indices (the GNU Scientific Library's gsl_stats_minmax_index). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 2000
#endif
#define N 32000
#define STRIDE 2
static double data[N * STRIDE];
static double vmin, vmax, total;
static size_t imin, imax;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  vmin = data[0];
  vmax = data[0];
  imin = 0;
  imax = 0;
  for (size_t i = 0; i < N; i++) {
    double xi = data[i * STRIDE];
    if (xi < vmin) {
      vmin = xi;
      imin = i;
    }
    if (xi > vmax) {
      vmax = xi;
      imax = i;
    }
  }
#pragma endscop
}
int main(void) {
  for (size_t i = 0; i < N * STRIDE; i++) data[i] = (double)((i * 7919 + 31) % 10007) / 10007.0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); total = 0.5 * total + imin + 2.0 * imax + vmin + vmax; }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  sum = total;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
