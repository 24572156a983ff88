/* 4x4 matrix products in column-major order, a row of A held in four scalars (Mesa's matmul4 of m_matrix.c), over a batch of matrices. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 170000
#endif
#define NM 256
static float a[NM][16], b[NM][16], p[NM][16];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int m = 0; m < NM; m++)
    for (int i = 0; i < 4; i++) {
      float ai0 = a[m][i], ai1 = a[m][4 + i], ai2 = a[m][8 + i], ai3 = a[m][12 + i];
      p[m][i] = ai0 * b[m][0] + ai1 * b[m][1] + ai2 * b[m][2] + ai3 * b[m][3];
      p[m][4 + i] = ai0 * b[m][4] + ai1 * b[m][5] + ai2 * b[m][6] + ai3 * b[m][7];
      p[m][8 + i] = ai0 * b[m][8] + ai1 * b[m][9] + ai2 * b[m][10] + ai3 * b[m][11];
      p[m][12 + i] = ai0 * b[m][12] + ai1 * b[m][13] + ai2 * b[m][14] + ai3 * b[m][15];
    }
#pragma endscop
}
int main(void) {
  for (int m = 0; m < NM; m++)
    for (int k = 0; k < 16; k++) {
      a[m][k] = ((m * 7 + k * 3) % 13) / 13.0f - 0.5f;
      b[m][k] = ((m * 5 + k * 11) % 17) / 17.0f;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int m = 0; m < NM; m++)
    for (int k = 0; k < 16; k++) sum += p[m][k] * (k % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
