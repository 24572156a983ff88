/* The diffusion coefficient of speckle-reducing anisotropic diffusion through Jc, G2, L, num, den, qsqr, with neighbours through index arrays (Rodinia's srad). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 170
#endif
#define ROWS 512
#define COLS 512
static float J[ROWS * COLS], dN[ROWS * COLS], dS[ROWS * COLS], dW[ROWS * COLS], dE[ROWS * COLS], c[ROWS * COLS];
static int iN[ROWS], iS[ROWS], jW[COLS], jE[COLS];
static float q0sqr;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++) {
      int k = i * COLS + j;
      float Jc = J[k];
      dN[k] = J[iN[i] * COLS + j] - Jc;
      dS[k] = J[iS[i] * COLS + j] - Jc;
      dW[k] = J[i * COLS + jW[j]] - Jc;
      dE[k] = J[i * COLS + jE[j]] - Jc;
      float G2 = (dN[k] * dN[k] + dS[k] * dS[k] + dW[k] * dW[k] + dE[k] * dE[k]) / (Jc * Jc);
      float L = (dN[k] + dS[k] + dW[k] + dE[k]) / Jc;
      float num = (0.5f * G2) - ((1.0f / 16.0f) * (L * L));
      float den = 1 + (0.25f * L);
      float qsqr = num / (den * den);
      den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
      c[k] = 1.0f / (1.0f + den);
      if (c[k] < 0)
        c[k] = 0;
      else if (c[k] > 1)
        c[k] = 1;
    }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < ROWS; i++) {
    iN[i] = i > 0 ? i - 1 : 0;
    iS[i] = i < ROWS - 1 ? i + 1 : ROWS - 1;
  }
  for (int j = 0; j < COLS; j++) {
    jW[j] = j > 0 ? j - 1 : 0;
    jE[j] = j < COLS - 1 ? j + 1 : COLS - 1;
  }
  for (int k = 0; k < ROWS * COLS; k++) J[k] = 1.0f + ((k * 7 + k / COLS * 3) % 64) / 128.0f;
  q0sqr = 0.05f;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int k = 0; k < ROWS * COLS; k++) sum += c[k] * (k % 3 + 1) + 1e-2 * dN[k] * (k % 5);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
