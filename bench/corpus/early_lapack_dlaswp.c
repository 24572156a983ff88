/* Row interchanges applied to blocks of 32 columns up to n32 = (n/32)*32, set before the loops, then to the remaining columns (LAPACK's DLASWP, incx = 1). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 700
#endif
#define M 256
#define NC 200
static double a[NC][M];
static int ipiv[M];
static int n32;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  n32 = (NC / 32) * 32;
  for (int j = 0; j < n32; j += 32)
    for (int i = 0; i < M; i++) {
      int ip = ipiv[i];
      if (ip != i)
        for (int k = j; k < j + 32; k++) {
          double temp = a[k][i];
          a[k][i] = a[k][ip];
          a[k][ip] = temp;
        }
    }
  if (n32 != NC)
    for (int i = 0; i < M; i++) {
      int ip = ipiv[i];
      if (ip != i)
        for (int k = n32; k < NC; k++) {
          double temp = a[k][i];
          a[k][i] = a[k][ip];
          a[k][ip] = temp;
        }
    }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < M; i++) ipiv[i] = i + (i * 7) % 5 < M ? i + (i * 7) % 5 : M - 1;
  for (int k = 0; k < NC; k++)
    for (int i = 0; i < M; i++) a[k][i] = ((i * 11 + k * 3) % 29) / 29.0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int k = 0; k < NC; k++)
    for (int i = 0; i < M; i++) sum += a[k][i] * (i % 7 + 1) * (k % 2 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
