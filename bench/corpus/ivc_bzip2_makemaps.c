/* The symbols in use renumbered in order: a counter advanced under a flag and used as a subscript (bzip2's makeMaps_d). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 630
#endif
#define NBLK 512
#define NSYM 256
static unsigned char inUse[NBLK][NSYM];
static int seqToUnseq[NBLK][NSYM];
static int nInUse[NBLK];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int b = 0; b < NBLK; b++) {
    int n = 0;
    for (int i = 0; i < NSYM; i++)
      if (inUse[b][i]) {
        seqToUnseq[b][n] = i;
        n++;
      }
    nInUse[b] = n;
  }
#pragma endscop
}
int main(void) {
  for (int b = 0; b < NBLK; b++)
    for (int i = 0; i < NSYM; i++)
      inUse[b][i] = ((i * (b + 3)) % 7 < 3) || (i % 29 == b % 29);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int b = 0; b < NBLK; b++) {
    sum += nInUse[b];
    for (int k = 0; k < nInUse[b]; k++) sum += 1e-3 * seqToUnseq[b][k] * (k % 3 + 1);
  }
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
