/* The 8x8 forward DCT as two 8x8 matrix products, rounded to integers (fdctref.c of the MPEG-2 Software Simulation Group), over a batch of blocks. */
#include <stdio.h>
#include <time.h>
#include <math.h>
#ifndef REPS
#define REPS 6800
#endif
#define NB 64
static double c[8][8], tmp[64];
static short block[NB][64], out[NB][64];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int b = 0; b < NB; b++) {
    for (int i = 0; i < 8; i++)
      for (int j = 0; j < 8; j++) {
        double s = 0.0;
        for (int k = 0; k < 8; k++)
          s += c[j][k] * block[b][8 * i + k];
        tmp[8 * i + j] = s;
      }
    for (int j = 0; j < 8; j++)
      for (int i = 0; i < 8; i++) {
        double s = 0.0;
        for (int k = 0; k < 8; k++)
          s += c[i][k] * tmp[8 * k + j];
        out[b][8 * i + j] = (short)floor(s + 0.499999);
      }
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < 8; i++) {
    double s = (i == 0) ? sqrt(0.125) : 0.5;
    for (int j = 0; j < 8; j++) c[i][j] = s * cos((3.141592653589793 / 8.0) * i * (j + 0.5));
  }
  for (int b = 0; b < NB; b++)
    for (int k = 0; k < 64; k++) block[b][k] = (short)((b * 37 + k * 11 + k / 8 * 5) % 511 - 255);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int b = 0; b < NB; b++)
    for (int k = 0; k < 64; k++) sum += out[b][k] * (k % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
