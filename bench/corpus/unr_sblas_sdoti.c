/* A sparse dot product x . y(indx) unrolled by hand by 4, clean-up loop last (the sparse BLAS SDOTI, summed in double as BLAS's DSDOT does). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 5300
#endif
#define NZ 16001
#define NY 65536
static float x[NZ], y[NY];
static int indx[NZ];
static double dot, total;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  dot = 0.0;
  for (int i = 0; i < NZ - NZ % 4; i += 4) {
    dot += (double)x[i] * y[indx[i]];
    dot += (double)x[i + 1] * y[indx[i + 1]];
    dot += (double)x[i + 2] * y[indx[i + 2]];
    dot += (double)x[i + 3] * y[indx[i + 3]];
  }
  for (int i = NZ - NZ % 4; i < NZ; i++)
    dot += (double)x[i] * y[indx[i]];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < NY; i++) y[i] = ((i * 7) % 19) / 19.0f;
  for (int i = 0; i < NZ; i++) {
    x[i] = ((i * 3) % 11) / 11.0f - 0.3f;
    indx[i] = (int)(((long)i * 2654435761L) % NY);
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); total = 0.5 * total + dot; }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  sum = total;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
