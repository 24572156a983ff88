/* A radix-2 pass of a real forward FFT through tr2 and ti2, with a mirrored index ic (FFTPACK's radf2, P. N. Swarztrauber). */
#include <stdio.h>
#include <time.h>
#include <math.h>
#ifndef REPS
#define REPS 3200
#endif
#define IDO 64
#define L1 256
static float cc[2][L1][IDO], ch[L1][2][IDO], wa1[IDO];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int k = 0; k < L1; k++) {
    ch[k][0][0] = cc[0][k][0] + cc[1][k][0];
    ch[k][1][IDO - 1] = cc[0][k][0] - cc[1][k][0];
  }
  for (int k = 0; k < L1; k++)
    for (int i = 3; i <= IDO; i += 2) {
      int ic = IDO + 2 - i;
      float tr2 = wa1[i - 3] * cc[1][k][i - 2] + wa1[i - 2] * cc[1][k][i - 1];
      float ti2 = wa1[i - 3] * cc[1][k][i - 1] - wa1[i - 2] * cc[1][k][i - 2];
      ch[k][0][i - 1] = cc[0][k][i - 1] + ti2;
      ch[k][1][ic - 1] = ti2 - cc[0][k][i - 1];
      ch[k][0][i - 2] = cc[0][k][i - 2] + tr2;
      ch[k][1][ic - 2] = cc[0][k][i - 2] - tr2;
    }
  for (int k = 0; k < L1; k++) {
    ch[k][1][0] = -cc[1][k][IDO - 1];
    ch[k][0][IDO - 1] = cc[0][k][IDO - 1];
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < IDO; i += 2) {
    double arg = 6.283185307179586 * (i / 2) / (2.0 * IDO);
    wa1[i] = (float)cos(arg);
    if (i + 1 < IDO) wa1[i + 1] = (float)sin(arg);
  }
  for (int j = 0; j < 2; j++)
    for (int k = 0; k < L1; k++)
      for (int i = 0; i < IDO; i++) cc[j][k][i] = ((i * 13 + k * 7 + j * 5) % 31) / 31.0f - 0.5f;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int k = 0; k < L1; k++)
    for (int j = 0; j < 2; j++)
      for (int i = 0; i < IDO; i++) sum += ch[k][j][i] * (i % 3 + 1 + j);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
