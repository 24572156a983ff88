/* Maximum of each row of a matrix (a reduction per row). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 264
#endif
#define N 1000
static float aa[N][N], mx[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++) {
    mx[i] = aa[i][0];
    for (int j = 1; j < N; j++)
      mx[i] = aa[i][j] > mx[i] ? aa[i][j] : mx[i];
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = ((i * 17 + j * 29) % 1009) / 1009.0f;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += mx[i] * (i % 5 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
