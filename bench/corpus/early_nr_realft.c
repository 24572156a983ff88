/* The untangling pass of a real FFT, np3 = n + 3 and the bound n >> 2 set before the loop (Numerical Recipes' realft, twiddles from a table). */
#include <stdio.h>
#include <time.h>
#include <math.h>
#ifndef REPS
#define REPS 15000
#endif
#define NR 8192
#define C1 0.5f
#define C2 (-0.5f)
static float data[NR + 1], data0[NR + 1], wrt[NR / 4 + 1], wit[NR / 4 + 1];
static unsigned long np3, nq;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (unsigned long i = 1; i <= NR; i++)
    data[i] = data0[i];
  np3 = NR + 3;
  nq = NR >> 2;
  for (unsigned long i = 2; i <= nq; i++) {
    unsigned long i1 = i + i - 1;
    unsigned long i2 = 1 + i1;
    unsigned long i3 = np3 - i2;
    unsigned long i4 = 1 + i3;
    float h1r = C1 * (data[i1] + data[i3]);
    float h1i = C1 * (data[i2] - data[i4]);
    float h2r = -C2 * (data[i2] + data[i4]);
    float h2i = C2 * (data[i1] - data[i3]);
    data[i1] = h1r + wrt[i] * h2r - wit[i] * h2i;
    data[i2] = h1i + wrt[i] * h2i + wit[i] * h2r;
    data[i3] = h1r - wrt[i] * h2r + wit[i] * h2i;
    data[i4] = -h1i + wrt[i] * h2i + wit[i] * h2r;
  }
  float h1r = data[1];
  data[1] = h1r + data[2];
  data[2] = h1r - data[2];
#pragma endscop
}
int main(void) {
  double theta = 3.141592653589793 / (NR >> 1);
  for (int i = 2; i <= NR / 4; i++) {
    wrt[i] = (float)cos((i - 1) * theta);
    wit[i] = (float)sin((i - 1) * theta);
  }
  for (int i = 1; i <= NR; i++) data0[i] = ((i * 13) % 31) / 31.0f - 0.5f;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 1; i <= NR; i++) sum += data[i] * (i % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
