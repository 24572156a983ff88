/* Gaussian pairs by the polar method through the temporaries x1, x2, t1..t4, counted by annulus (the inner loop of the NAS EP benchmark). */
#include <stdio.h>
#include <time.h>
#include <math.h>
#ifndef REPS
#define REPS 64
#endif
#define NK 65536
#define NQ 10
static double x[2 * NK], q[NQ];
static double sx, sy, total;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int l = 0; l < NQ; l++)
    q[l] = 0.0;
  sx = 0.0;
  sy = 0.0;
  for (int i = 0; i < NK; i++) {
    double x1 = 2.0 * x[2 * i] - 1.0;
    double x2 = 2.0 * x[2 * i + 1] - 1.0;
    double t1 = x1 * x1 + x2 * x2;
    if (t1 <= 1.0) {
      double t2 = sqrt(-2.0 * log(t1) / t1);
      double t3 = x1 * t2;
      double t4 = x2 * t2;
      int l = (int)fmax(fabs(t3), fabs(t4));
      q[l] += 1.0;
      sx += t3;
      sy += t4;
    }
  }
#pragma endscop
}
int main(void) {
  unsigned long seed = 271828183UL;
  for (int i = 0; i < 2 * NK; i++) {
    seed = (seed * 1220703125UL) & ((1UL << 46) - 1);
    x[i] = ((double)(seed >> 22) + 0.5) / (double)(1UL << 24);
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); total = 0.5 * total + sx + sy; }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int l = 0; l < NQ; l++) sum += q[l] * (l + 1);
  sum += sx + 2.0 * sy + total;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
