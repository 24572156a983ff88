/* Restriction to the coarser grid: offsets d1, d2, d3 set by tests before the loops, fine indices i = 2*j - d, and line temporaries (rprj3 of the NAS MG benchmark). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 830
#endif
#define MK 66
#define MJ 34
static double r[MK][MK][MK], s[MJ][MJ][MJ], x1a[MK + 2], y1a[MK + 2];
static int m1k = MK, m2k = MK, m3k = MK, m1j = MJ, m2j = MJ, m3j = MJ;
static int d1, d2, d3;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  if (m1k == 3)
    d1 = 2;
  else
    d1 = 1;
  if (m2k == 3)
    d2 = 2;
  else
    d2 = 1;
  if (m3k == 3)
    d3 = 2;
  else
    d3 = 1;
  for (int j3 = 1; j3 < m3j - 1; j3++) {
    int i3 = 2 * j3 - d3;
    for (int j2 = 1; j2 < m2j - 1; j2++) {
      int i2 = 2 * j2 - d2;
      for (int j1 = 1; j1 < m1j; j1++) {
        int i1 = 2 * j1 - d1;
        x1a[i1] = r[i3 + 1][i2][i1] + r[i3 + 1][i2 + 2][i1] + r[i3][i2 + 1][i1] + r[i3 + 2][i2 + 1][i1];
        y1a[i1] = r[i3][i2][i1] + r[i3 + 2][i2][i1] + r[i3][i2 + 2][i1] + r[i3 + 2][i2 + 2][i1];
      }
      for (int j1 = 1; j1 < m1j - 1; j1++) {
        int i1 = 2 * j1 - d1;
        double y2 = r[i3][i2][i1 + 1] + r[i3 + 2][i2][i1 + 1] + r[i3][i2 + 2][i1 + 1] + r[i3 + 2][i2 + 2][i1 + 1];
        double x2 = r[i3 + 1][i2][i1 + 1] + r[i3 + 1][i2 + 2][i1 + 1] + r[i3][i2 + 1][i1 + 1] + r[i3 + 2][i2 + 1][i1 + 1];
        s[j3][j2][j1] = 0.5 * r[i3 + 1][i2 + 1][i1 + 1] +
                        0.25 * (r[i3 + 1][i2 + 1][i1] + r[i3 + 1][i2 + 1][i1 + 2] + x2) +
                        0.125 * (x1a[i1] + x1a[i1 + 2] + y2) + 0.0625 * (y1a[i1] + y1a[i1 + 2]);
      }
    }
  }
#pragma endscop
}
int main(void) {
  for (int i3 = 0; i3 < MK; i3++)
    for (int i2 = 0; i2 < MK; i2++)
      for (int i1 = 0; i1 < MK; i1++) r[i3][i2][i1] = ((i1 * 7 + i2 * 11 + i3 * 13) % 23) / 23.0 - 0.5;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int j3 = 0; j3 < MJ; j3++)
    for (int j2 = 0; j2 < MJ; j2++)
      for (int j1 = 0; j1 < MJ; j1++) sum += s[j3][j2][j1] * (j1 % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
