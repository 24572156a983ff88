/* The single-precision exponential: a range reduction, a polynomial and a scaling by 2^n, through temporaries (Cephes' expf, S. Moshier). */
#include <stdio.h>
#include <time.h>
#include <math.h>
#ifndef REPS
#define REPS 440
#endif
#define N 32000
#define LOG2EF 1.44269504088896341f
#define C1 0.693359375f
#define C2 (-2.12194440e-4f)
static float xin[N], y[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++) {
    float x = xin[i];
    float z = floorf(LOG2EF * x + 0.5f);
    x -= z * C1;
    x -= z * C2;
    int n = (int)z;
    z = x * x;
    z = (((((1.9875691500E-4f * x + 1.3981999507E-3f) * x + 8.3334519073E-3f) * x + 4.1665795894E-2f) * x +
          1.6666665459E-1f) * x + 5.0000001201E-1f) * z + x + 1.0f;
    y[i] = ldexpf(z, n);
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) xin[i] = ((i * 37) % 2001) / 100.0f - 10.0f;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += y[i] * 1e-3 * (i % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
