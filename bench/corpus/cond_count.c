/* Counting the elements above a threshold (an integer counter under a data test). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 14051
#endif
#define N 32000
static float a[N];
static int cnt;
static double total;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  cnt = 0;
  for (int i = 0; i < N; i++)
    if (a[i] > 0.5f)
      cnt++;
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = ((i * 13) % 19) / 19.0f;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); total += cnt; }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  sum = total + cnt;
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
