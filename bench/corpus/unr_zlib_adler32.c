/* The Adler-32 checksum with its two running sums unrolled by hand by 8 and reduced once per block of NMAX bytes (zlib's adler32, DO8). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 2900
#endif
#define BASE 65521UL
#define NMAX 5552
#define LEN (NMAX * 20 + 100)
static unsigned char buf[LEN];
static unsigned long adler, sum2, acc;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  adler = 1;
  sum2 = 0;
  for (long b = 0; b < LEN / NMAX; b++) {
    for (long k = b * NMAX; k < (b + 1) * NMAX; k += 8) {
      adler += buf[k];
      sum2 += adler;
      adler += buf[k + 1];
      sum2 += adler;
      adler += buf[k + 2];
      sum2 += adler;
      adler += buf[k + 3];
      sum2 += adler;
      adler += buf[k + 4];
      sum2 += adler;
      adler += buf[k + 5];
      sum2 += adler;
      adler += buf[k + 6];
      sum2 += adler;
      adler += buf[k + 7];
      sum2 += adler;
    }
    adler %= BASE;
    sum2 %= BASE;
  }
  for (long k = LEN / NMAX * NMAX; k < LEN; k++) {
    adler += buf[k];
    sum2 += adler;
  }
  adler %= BASE;
  sum2 %= BASE;
#pragma endscop
}
int main(void) {
  for (long k = 0; k < LEN; k++) buf[k] = (unsigned char)((k * 131 + k / 7) & 0xff);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); acc = (acc * 31 + ((sum2 << 16) | adler)) % 1000003UL; }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  sum = (double)acc + (double)((sum2 << 16) | adler);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
