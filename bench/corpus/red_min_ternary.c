/* Minimum reduction written with a conditional expression. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 6000
#endif
#define N 32000
static float a[N];
static float m;
static double total;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  m = a[0];
  for (int i = 1; i < N; i++)
    m = a[i] < m ? a[i] : m;
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = ((i * 7919) % 10007) / 10007.0f + 0.25f;
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
