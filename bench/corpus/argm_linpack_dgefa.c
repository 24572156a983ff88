/* Gaussian elimination with partial pivoting: a first-max pivot search down each column, the row swap and the column updates (LINPACK's DGEFA), on a copy reset each call. */
#include <stdio.h>
#include <time.h>
#include <math.h>
#ifndef REPS
#define REPS 2100
#endif
#define N 64
static double a[N][N], a0[N][N];
static int ipvt[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      a[j][i] = a0[j][i];
  for (int k = 0; k < N - 1; k++) {
    int l = k;
    double amax = fabs(a[k][k]);
    for (int i = k + 1; i < N; i++)
      if (fabs(a[k][i]) > amax) {
        amax = fabs(a[k][i]);
        l = i;
      }
    ipvt[k] = l;
    double t = a[k][l];
    a[k][l] = a[k][k];
    a[k][k] = t;
    t = -1.0 / a[k][k];
    for (int i = k + 1; i < N; i++)
      a[k][i] *= t;
    for (int j = k + 1; j < N; j++) {
      t = a[j][l];
      a[j][l] = a[j][k];
      a[j][k] = t;
      for (int i = k + 1; i < N; i++)
        a[j][i] += t * a[k][i];
    }
  }
  ipvt[N - 1] = N - 1;
#pragma endscop
}
int main(void) {
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) a0[j][i] = ((i * 17 + j * 31) % 41) / 41.0 - 0.5 + (i == j ? 0.3 : 0.0);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int j = 0; j < N; j++) {
    sum += ipvt[j] * (j % 3 + 1);
    for (int i = 0; i < N; i++) sum += 1e-3 * a[j][i] * (i % 4 + 1);
  }
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
