/* A 25x25 matrix product with the dot product in a scalar sum (NAIF CSPICE's mxmg_c, the general-dimension product), called many times. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 38000
#endif
#define NR1 25
#define NC1 25
#define NC2 25
static double m1[NR1 * NC1], m2[NC1 * NC2], mout[NR1 * NC2];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < NR1; i++)
    for (int j = 0; j < NC2; j++) {
      double sum = 0.0;
      for (int k = 0; k < NC1; k++)
        sum += m1[i * NC1 + k] * m2[k * NC2 + j];
      mout[i * NC2 + j] = sum;
    }
#pragma endscop
}
int main(void) {
  for (int k = 0; k < NR1 * NC1; k++) m1[k] = ((k * 7) % 23) / 23.0 - 0.4;
  for (int k = 0; k < NC1 * NC2; k++) m2[k] = ((k * 5) % 19) / 19.0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int k = 0; k < NR1 * NC2; k++) sum += mout[k] * (k % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
