/* The nearest cluster centre of each point, strict < so the first of equal distances is kept (find_nearest_point of Rodinia's kmeans). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 5700
#endif
#define NPTS 4096
#define NCL 16
#define NF 8
static float pt[NPTS][NF], cl[NCL][NF];
static int membership[NPTS];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int p = 0; p < NPTS; p++) {
    int index = 0;
    float min_dist = 3.0e38f;
    for (int c = 0; c < NCL; c++) {
      float dist = 0.0f;
      for (int f = 0; f < NF; f++)
        dist += (pt[p][f] - cl[c][f]) * (pt[p][f] - cl[c][f]);
      if (dist < min_dist) {
        min_dist = dist;
        index = c;
      }
    }
    membership[p] = index;
  }
#pragma endscop
}
int main(void) {
  for (int p = 0; p < NPTS; p++)
    for (int f = 0; f < NF; f++) pt[p][f] = (float)((p * 7 + f * 13 + p / 5) % 9);
  for (int c = 0; c < NCL; c++)
    for (int f = 0; f < NF; f++) cl[c][f] = (float)((c * 5 + f * 3) % 9);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int p = 0; p < NPTS; p++) sum += membership[p] * (p % 7 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
