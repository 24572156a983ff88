/* Packing the positive elements of a vector to the front of another (j++ under a data test). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 10173
#endif
#define N 32000
static float a[N], b[N];
static int j;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  j = 0;
  for (int i = 0; i < N; i++)
    if (b[i] > 0.0f) {
      a[j] = b[i];
      j++;
    }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = 0.0f;
    b[i] = ((i * 7) % 11) - 5.0f;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < j; i++) sum += a[i] * (i % 7);
  sum += j;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
