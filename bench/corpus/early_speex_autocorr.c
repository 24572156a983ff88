/* Fixed-point autocorrelation: the shifts found by while loops before the lag loops, then ac[k] = sum x[i]*x[i-k] >> shift (Speex's _spx_autocorr, fixed-point build). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 1400
#endif
#define NFR 256
#define N 160
#define ORDER 10
static short x[NFR][N];
static int ac[NFR][ORDER + 1];
static int lag;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  lag = ORDER + 1;
  for (int f = 0; f < NFR; f++) {
    int ac0 = 1;
    for (int j = 0; j < N; j++)
      ac0 += (x[f][j] * x[f][j]) >> 8;
    ac0 += N;
    int shift = 8;
    while (shift && ac0 < 0x40000000) {
      shift--;
      ac0 <<= 1;
    }
    int ac_shift = 18;
    while (ac_shift && ac0 < 0x40000000) {
      ac_shift--;
      ac0 <<= 1;
    }
    for (int k = 0; k < lag; k++) {
      int d = 0;
      for (int j = k; j < N; j++)
        d += (x[f][j] * x[f][j - k]) >> shift;
      ac[f][k] = d >> ac_shift;
    }
  }
#pragma endscop
}
int main(void) {
  for (int f = 0; f < NFR; f++)
    for (int j = 0; j < N; j++) x[f][j] = (short)(((f * 31 + j * 17 + j * j) % 401 - 200) * (1 + f % 10));
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int f = 0; f < NFR; f++)
    for (int k = 0; k <= ORDER; k++) sum += ac[f][k] * (k + 1) * 1e-3;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
