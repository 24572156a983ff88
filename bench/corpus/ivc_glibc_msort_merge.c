/* Merging two sorted runs, a counter advanced in each branch and used as a subscript (the merge step of glibc's msort_with_tmp). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 13000
#endif
#define N1 6000
#define N2 5000
static float x[N1], y[N2], z[N1 + N2];
static int i1, i2;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  i1 = 0;
  i2 = 0;
  for (int k = 0; k < N1 + N2; k++) {
    if (i2 >= N2 || (i1 < N1 && x[i1] <= y[i2])) {
      z[k] = x[i1];
      i1++;
    } else {
      z[k] = y[i2];
      i2++;
    }
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N1; i++) x[i] = 0.5f * i + 0.125f * (i % 3);
  for (int i = 0; i < N2; i++) y[i] = 0.625f * i + 0.25f * (i % 2);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int k = 0; k < N1 + N2; k++) sum += z[k] * (k % 5 + 1);
  sum += i1 + 1e-3 * i2;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
