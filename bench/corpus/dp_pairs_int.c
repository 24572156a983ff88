/* Triangular int table, most pairs in a sequence: each cell the best of its neighbours and its splits. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 10
#endif
#define N 400
static int best[N][N];
static int seq[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = N - 1; i >= 0; i--)
    for (int j = i + 1; j < N; j++) {
      best[i][j] = best[i][j - 1] > best[i + 1][j] ? best[i][j - 1] : best[i + 1][j];
      if (best[i + 1][j - 1] + (seq[i] + seq[j] == 3 ? 1 : 0) > best[i][j])
        best[i][j] = best[i + 1][j - 1] + (seq[i] + seq[j] == 3 ? 1 : 0);
      for (int k = i + 1; k < j; k++)
        if (best[i][k] + best[k + 1][j] > best[i][j])
          best[i][j] = best[i][k] + best[k + 1][j];
    }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) seq[i] = (i * 7 + i / 5) % 4;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) best[i][j] = 0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = i; j < N; j++) sum += best[i][j];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
