/* Needleman-Wunsch alignment scores by anti-diagonals, upper-left then lower-right triangle, bounds from max_cols = cols + 1 set before the loops (Rodinia's nw). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 8
#endif
#define NCOLS 1024
#define PENALTY 10
static int items[(NCOLS + 1) * (NCOLS + 1)], ref[(NCOLS + 1) * (NCOLS + 1)];
static int max_cols;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  max_cols = NCOLS + 1;
  for (int i = 0; i < max_cols - 2; i++)
    for (int idx = 0; idx <= i; idx++) {
      int index = (idx + 1) * max_cols + (i + 1 - idx);
      int v1 = items[index - 1 - max_cols] + ref[index];
      int v2 = items[index - 1] - PENALTY;
      int v3 = items[index - max_cols] - PENALTY;
      int k = v1 <= v2 ? v2 : v1;
      items[index] = k <= v3 ? v3 : k;
    }
  for (int i = max_cols - 4; i >= 0; i--)
    for (int idx = 0; idx <= i; idx++) {
      int index = (max_cols - idx - 2) * max_cols + idx + max_cols - i - 2;
      int v1 = items[index - 1 - max_cols] + ref[index];
      int v2 = items[index - 1] - PENALTY;
      int v3 = items[index - max_cols] - PENALTY;
      int k = v1 <= v2 ? v2 : v1;
      items[index] = k <= v3 ? v3 : k;
    }
#pragma endscop
}
int main(void) {
  for (int i = 0; i <= NCOLS; i++)
    for (int j = 0; j <= NCOLS; j++) {
      ref[i * (NCOLS + 1) + j] = (i * 7 + j * 13 + i / 3) % 16 - 4;
      items[i * (NCOLS + 1) + j] = i == 0 ? -j * PENALTY : (j == 0 ? -i * PENALTY : 0);
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int k = 0; k < (NCOLS + 1) * (NCOLS + 1); k += 3) sum += items[k] * 1e-3;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
