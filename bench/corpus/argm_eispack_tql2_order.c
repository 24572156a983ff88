/* Eigenvalues put in ascending order by selection, the first minimum of each tail (strict <) and its eigenvector column swapped in (the end of EISPACK's tql2). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 2000
#endif
#define N 256
static double d[N], d0[N], z[N][N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    d[i] = d0[i];
  for (int ii = 1; ii < N; ii++) {
    int i = ii - 1;
    int k = i;
    double p = d[i];
    for (int j = ii; j < N; j++)
      if (d[j] < p) {
        k = j;
        p = d[j];
      }
    if (k != i) {
      d[k] = d[i];
      d[i] = p;
      for (int j = 0; j < N; j++) {
        double t = z[i][j];
        z[i][j] = z[k][j];
        z[k][j] = t;
      }
    }
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    d0[i] = ((i * 97) % 61) / 61.0 - 0.5;
    for (int j = 0; j < N; j++) z[i][j] = ((i * 3 + j * 5) % 23) / 23.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) {
    sum += d[i] * (i + 1);
    for (int j = 0; j < N; j += 8) sum += z[i][j] * (i % 5 + 1) * 1e-2;
  }
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
