/* Sorting the symbols of a code by length: counts, their offsets, then offs[len]++ as a subscript (zlib's inflate_table). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 2100
#endif
#define NT 64
#define CODES 320
#define MAXBITS 15
static unsigned short lens[NT][CODES], work[NT][CODES];
static unsigned short count[NT][MAXBITS + 1], offs[NT][MAXBITS + 1];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int t = 0; t < NT; t++) {
    for (int len = 0; len <= MAXBITS; len++)
      count[t][len] = 0;
    for (int sym = 0; sym < CODES; sym++)
      count[t][lens[t][sym]]++;
    offs[t][1] = 0;
    for (int len = 1; len < MAXBITS; len++)
      offs[t][len + 1] = offs[t][len] + count[t][len];
    for (int sym = 0; sym < CODES; sym++)
      if (lens[t][sym] != 0)
        work[t][offs[t][lens[t][sym]]++] = (unsigned short)sym;
  }
#pragma endscop
}
int main(void) {
  for (int t = 0; t < NT; t++)
    for (int s = 0; s < CODES; s++)
      lens[t][s] = (unsigned short)(((s * 7 + t * 3) % 23 < 4) ? 0 : 1 + (s * (t + 5) + s / 3) % MAXBITS);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int t = 0; t < NT; t++)
    for (int s = 0; s < CODES; s++) sum += work[t][s] * (double)(s % 7 + 1) * 1e-3;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
