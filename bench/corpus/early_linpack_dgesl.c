/* Solving with LU factors: the forward loop runs to nm1 = n - 1 set before it, with the pivot swaps, then the back substitution (LINPACK's DGESL, job 0). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 46000
#endif
#define N 100
static double a[N][N], b[N], b0[N];
static int ipvt[N];
static int nm1;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    b[i] = b0[i];
  nm1 = N - 1;
  for (int k = 0; k < nm1; k++) {
    int l = ipvt[k];
    double t = b[l];
    if (l != k) {
      b[l] = b[k];
      b[k] = t;
    }
    for (int i = k + 1; i < N; i++)
      b[i] += t * a[k][i];
  }
  for (int kb = 0; kb < N; kb++) {
    int k = N - 1 - kb;
    b[k] = b[k] / a[k][k];
    double t = -b[k];
    for (int i = 0; i < k; i++)
      b[i] += t * a[k][i];
  }
#pragma endscop
}
int main(void) {
  for (int k = 0; k < N; k++) {
    ipvt[k] = k + k % 3 < N ? k + k % 3 : N - 1;
    b0[k] = ((k * 7) % 11) / 11.0;
    for (int i = 0; i < N; i++)
      a[k][i] = i > k ? -0.05 * ((i + k) % 5) / 5.0 : (i == k ? 2.0 + 0.1 * (k % 3) : 0.01 * ((i * 3 + k) % 4));
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += b[i] * (i % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
