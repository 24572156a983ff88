/* y = y + M*x with the columns taken 4 at a time after clean-ups of one and two columns (dmxpy of the LINPACK benchmark, J. Dongarra). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 18000
#endif
#define N 203
static double m[N][N], x[N], y[N], yinit[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    y[i] = yinit[i];
  for (int i = 0; i < N; i++)
    y[i] = y[i] + x[0] * m[0][i];
  for (int i = 0; i < N; i++)
    y[i] = (y[i] + x[1] * m[1][i]) + x[2] * m[2][i];
  for (int j = 6; j < N; j += 4)
    for (int i = 0; i < N; i++)
      y[i] = (((y[i] + x[j - 3] * m[j - 3][i]) + x[j - 2] * m[j - 2][i]) + x[j - 1] * m[j - 1][i]) + x[j] * m[j][i];
#pragma endscop
}
int main(void) {
  for (int j = 0; j < N; j++) {
    x[j] = ((j * 5) % 7) / 7.0 - 0.4;
    yinit[j] = (j % 3) / 3.0;
    for (int i = 0; i < N; i++) m[j][i] = ((i * 3 + j * 7) % 23) / 23.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += y[i] * (i % 4 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
