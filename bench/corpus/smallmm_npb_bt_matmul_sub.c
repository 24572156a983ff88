/* 5x5 block products subtracted from a block at each grid point, c = c - a*b column-major (matmul_sub of the NAS BT benchmark), the blocks reset each call. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 1600
#endif
#define NP 2048
static double a[NP][5][5], b[NP][5][5], c[NP][5][5], c0[NP][5][5];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int p = 0; p < NP; p++)
    for (int j = 0; j < 5; j++)
      for (int i = 0; i < 5; i++)
        c[p][j][i] = c0[p][j][i];
  for (int p = 0; p < NP; p++)
    for (int j = 0; j < 5; j++)
      for (int i = 0; i < 5; i++)
        c[p][j][i] = c[p][j][i] - a[p][0][i] * b[p][j][0] - a[p][1][i] * b[p][j][1] - a[p][2][i] * b[p][j][2] -
                     a[p][3][i] * b[p][j][3] - a[p][4][i] * b[p][j][4];
#pragma endscop
}
int main(void) {
  for (int p = 0; p < NP; p++)
    for (int j = 0; j < 5; j++)
      for (int i = 0; i < 5; i++) {
        a[p][j][i] = ((p * 3 + j * 5 + i * 7) % 17) / 17.0 - 0.5;
        b[p][j][i] = ((p * 7 + j * 11 + i) % 13) / 13.0;
        c0[p][j][i] = (i == j) ? 4.0 : 0.1 * ((i + j + p) % 3);
      }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int p = 0; p < NP; p++)
    for (int j = 0; j < 5; j++)
      for (int i = 0; i < 5; i++) sum += c[p][j][i] * (i + j % 2 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
