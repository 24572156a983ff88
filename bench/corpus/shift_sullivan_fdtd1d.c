/* The E and H updates of a 1-D FDTD grid in one loop, H one cell behind E (D. Sullivan's fd1d programs, from his FDTD book). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 1600
#endif
#define KE 8000
#define NSTEPS 8
static float ex[KE], hy[KE];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int t = 0; t < NSTEPS; t++)
    for (int k = 1; k < KE; k++) {
      ex[k] = ex[k] + 0.5f * (hy[k - 1] - hy[k]);
      hy[k - 1] = hy[k - 1] + 0.5f * (ex[k - 1] - ex[k]);
    }
#pragma endscop
}
int main(void) {
  for (int k = 0; k < KE; k++) {
    int dk = k - KE / 2;
    if (dk < 0) dk = -dk;
    ex[k] = dk < 200 ? (200 - dk) / 200.0f : 0.0f;
    hy[k] = 0.0f;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int k = 0; k < KE; k++) sum += ex[k] * ex[k] + hy[k] * hy[k] + 1e-3 * ex[k] * (k % 7);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
