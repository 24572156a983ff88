/* Products of 3x3 rotation matrices through a temporary, then copied out (NAIF CSPICE's mxm_c), over a batch of rotations. */
#include <stdio.h>
#include <time.h>
#include <math.h>
#ifndef REPS
#define REPS 7400
#endif
#define NP 2048
static double r1[NP][3][3], r2[NP][3][3], rout[NP][3][3], mtemp[3][3];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int p = 0; p < NP; p++) {
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        mtemp[i][j] = r1[p][i][0] * r2[p][0][j] + r1[p][i][1] * r2[p][1][j] + r1[p][i][2] * r2[p][2][j];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        rout[p][i][j] = mtemp[i][j];
  }
#pragma endscop
}
int main(void) {
  for (int p = 0; p < NP; p++) {
    double a = 0.001 * p, b = 0.0007 * (p % 101);
    double ca = cos(a), sa = sin(a), cb = cos(b), sb = sin(b);
    double z[3][3] = {{ca, -sa, 0.0}, {sa, ca, 0.0}, {0.0, 0.0, 1.0}};
    double y[3][3] = {{cb, 0.0, sb}, {0.0, 1.0, 0.0}, {-sb, 0.0, cb}};
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        r1[p][i][j] = z[i][j];
        r2[p][i][j] = y[i][j];
      }
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int p = 0; p < NP; p++)
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) sum += rout[p][i][j] * (i + 2 * j + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
