/* The inner-block update of a blocked LU: each 16x16 block less the product of its left and top 16x16 blocks (Rodinia's lud_omp), reset from a copy each call. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 54000
#endif
#define BS 16
#define NBLK 16
static float a[NBLK][BS * BS], a0[NBLK][BS * BS], left[NBLK][BS * BS], top[NBLK][BS * BS];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int b = 0; b < NBLK; b++)
    for (int k = 0; k < BS * BS; k++)
      a[b][k] = a0[b][k];
  for (int b = 0; b < NBLK; b++)
    for (int i = 0; i < BS; i++)
      for (int j = 0; j < BS; j++) {
        float sum = 0.0f;
        for (int k = 0; k < BS; k++)
          sum += left[b][BS * i + k] * top[b][BS * j + k];
        a[b][BS * i + j] -= sum;
      }
#pragma endscop
}
int main(void) {
  for (int b = 0; b < NBLK; b++)
    for (int k = 0; k < BS * BS; k++) {
      a0[b][k] = ((b * 3 + k * 7) % 19) / 19.0f;
      left[b][k] = ((b * 5 + k * 3) % 8) / 8.0f - 0.25f;
      top[b][k] = ((b + k * 11) % 16) / 16.0f;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int b = 0; b < NBLK; b++)
    for (int k = 0; k < BS * BS; k++) sum += a[b][k] * (k % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
