/* Deinterleaving complex numbers stored re,im,re,im into the squared magnitudes. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 61256
#endif
#define N 32000
static float z[2 * N], mag[N];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    mag[i] = z[2 * i] * z[2 * i] + z[2 * i + 1] * z[2 * i + 1];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < 2 * N; i++) z[i] = ((i * 3) % 7) / 7.0f;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += mag[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
