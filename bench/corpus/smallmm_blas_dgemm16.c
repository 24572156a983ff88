/* C = alpha*A*B + beta*C on 16x16 column-major matrices in the j, l, i order of the reference BLAS routine DGEMM (netlib), called many times. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 57000
#endif
#define M 16
static double a[M][M], b[M][M], c[M][M];
static double alpha = 0.5, beta = 0.5;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int j = 0; j < M; j++) {
    for (int i = 0; i < M; i++)
      c[j][i] = beta * c[j][i];
    for (int l = 0; l < M; l++) {
      double temp = alpha * b[j][l];
      for (int i = 0; i < M; i++)
        c[j][i] = c[j][i] + temp * a[l][i];
    }
  }
#pragma endscop
}
int main(void) {
  for (int j = 0; j < M; j++)
    for (int i = 0; i < M; i++) {
      a[j][i] = ((i * 3 + j * 7) % 11) / 11.0 - 0.3;
      b[j][i] = ((i * 5 + j * 2) % 13) / 13.0;
      c[j][i] = 0.0;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int j = 0; j < M; j++)
    for (int i = 0; i < M; i++) sum += c[j][i] * (i % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
