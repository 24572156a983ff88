/* A tridiagonal solve of 100 unknowns through the scalar bet, called many times (Numerical Recipes' tridag). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 98000
#endif
#define N 100
static double a[N], b[N], c[N], r[N], u[N], gam[N];
static double bet;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  bet = b[0];
  u[0] = r[0] / bet;
  for (int j = 1; j < N; j++) {
    gam[j] = c[j - 1] / bet;
    bet = b[j] - a[j] * gam[j];
    u[j] = (r[j] - a[j] * u[j - 1]) / bet;
  }
  for (int j = N - 2; j >= 0; j--)
    u[j] -= gam[j + 1] * u[j + 1];
#pragma endscop
}
int main(void) {
  for (int j = 0; j < N; j++) {
    a[j] = -1.0 + 0.01 * (j % 5);
    b[j] = 4.0 + 0.1 * (j % 3);
    c[j] = -1.0 - 0.02 * (j % 7);
    r[j] = ((j * 7) % 13) / 13.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int j = 0; j < N; j++) sum += u[j] * (j % 4 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
