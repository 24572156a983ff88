/* Distinct positions of a sparse vector: a counter advanced when a position is not yet marked (the loop of NAS CG's sprnvc). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 3400
#endif
#define N 8192
#define NCAND 12000
static double v[NCAND], val[NCAND];
static int iv[NCAND], cand[NCAND], mark[N];
static int nzv;
static double total;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  nzv = 0;
  for (int k = 0; k < NCAND; k++) {
    int i = cand[k];
    if (mark[i] == 0) {
      mark[i] = 1;
      v[nzv] = val[k];
      iv[nzv] = i;
      nzv++;
    }
  }
  for (int ii = 0; ii < nzv; ii++)
    mark[iv[ii]] = 0;
#pragma endscop
}
int main(void) {
  for (int k = 0; k < NCAND; k++) {
    cand[k] = (int)(((long)k * k * 7 + k * 3 + 11) % N);
    val[k] = ((k * 37) % 101) / 101.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); total = 0.5 * total + nzv; }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int k = 0; k < nzv; k++) sum += v[k] * (1 + iv[k] % 5);
  sum += total;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
