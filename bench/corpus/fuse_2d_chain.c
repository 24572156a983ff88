/* Three consecutive 2-D nests, each consuming the previous one's output elementwise. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 146
#endif
#define N 1000
static double a[N][N], b[N][N], t1[N][N], t2[N][N], out[N][N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      t1[i][j] = a[i][j] * 2.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      t2[i][j] = t1[i][j] + b[i][j];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      out[i][j] = t2[i][j] * t1[i][j] * 0.25;
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = ((i + j) % 9) / 9.0;
      b[i][j] = ((i * 2 + j) % 5) / 5.0;
      t1[i][j] = 0.0;
      t2[i][j] = 0.0;
      out[i][j] = 0.0;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) sum += out[i][j];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
