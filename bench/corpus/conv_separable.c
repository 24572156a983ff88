/* Separable 2-D blur: a horizontal pass into a temporary, then a vertical pass (producer-consumer). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 725
#endif
#define N 1000
static float in[N][N], tmp[N][N], out[N][N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 1; j < N - 1; j++)
      tmp[i][j] = 0.25f * in[i][j - 1] + 0.5f * in[i][j] + 0.25f * in[i][j + 1];
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      out[i][j] = 0.25f * tmp[i - 1][j] + 0.5f * tmp[i][j] + 0.25f * tmp[i + 1][j];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      in[i][j] = ((i * 7 + j) % 23) / 23.0f;
      tmp[i][j] = 0.0f;
      out[i][j] = 0.0f;
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
