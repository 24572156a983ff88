/* Integer prefix sums along the rows of a large matrix (summed-area table, first pass). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 445
#endif
#define N 1000
static int s[N][N], x[N][N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    s[i][0] = x[i][0];
  for (int i = 0; i < N; i++)
    for (int j = 1; j < N; j++)
      s[i][j] = s[i][j - 1] + x[i][j];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      s[i][j] = 0;
      x[i][j] = (i * 7 + j * 3) % 10;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) sum += s[i][j];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
