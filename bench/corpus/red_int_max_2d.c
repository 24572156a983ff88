/* Integer maximum over a matrix with a conditional expression. */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 10868
#endif
#define N 512
static int aa[N][N];
static int m;
static double total;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  m = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      m = aa[i][j] > m ? aa[i][j] : m;
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      aa[i][j] = (i * 131 + j * 71) % 100003;
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
