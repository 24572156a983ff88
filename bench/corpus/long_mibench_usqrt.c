/* Integer square roots in 16.16 fixed point, two bits per step, with unsigned indices and operands (MiBench basicmath's usqrt). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 720
#endif
#define N 20000
#define BITS 32
static unsigned int xs[N], root[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (unsigned k = 0; k < N; k++) {
    unsigned int x = xs[k];
    unsigned int a = 0, r = 0, e = 0;
    for (unsigned i = 0; i < BITS; i++) {
      r = (r << 2) + ((x & (3U << (BITS - 2))) >> (BITS - 2));
      x <<= 2;
      a <<= 1;
      e = (a << 1) + 1;
      if (r >= e) {
        r -= e;
        a++;
      }
    }
    root[k] = a;
  }
#pragma endscop
}
int main(void) {
  for (unsigned k = 0; k < N; k++) xs[k] = k * 2654435761U % 1000000007U;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (unsigned k = 0; k < N; k++) sum += root[k] / 65536.0 * (k % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
