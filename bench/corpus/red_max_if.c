/* Maximum reduction written with an if. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 4000
#endif
#define N 32000
static double a[N];
static double m;
static double total;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  m = a[0];
  for (int i = 1; i < N; i++)
    if (a[i] > m)
      m = a[i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = ((i * 4099) % 8191) / 8191.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); total += m; }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  sum = total;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
