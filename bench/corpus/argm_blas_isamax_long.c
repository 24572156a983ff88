/* First-max search of magnitudes with a long index (the reference BLAS routine ISAMAX, netlib, as built with 64-bit integers). */
#include <stdio.h>
#include <time.h>
#include <math.h>
#ifndef REPS
#define REPS 4400
#endif
#define N 32000L
static float sx[N];
static float smax;
static long isamax;
static double total;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  isamax = 0;
  smax = fabsf(sx[0]);
  for (long i = 1; i < N; i++)
    if (fabsf(sx[i]) > smax) {
      isamax = i;
      smax = fabsf(sx[i]);
    }
#pragma endscop
}
int main(void) {
  for (long i = 0; i < N; i++) sx[i] = (float)((i * 4099 + 77) % 8191 - 4095) / 4095.0f;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); total = 0.5 * total + isamax + smax; }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  sum = total;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
