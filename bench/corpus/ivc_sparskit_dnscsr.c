/* Dense to compressed sparse rows: a counter advanced under a nonzero test and used as a subscript (SPARSKIT's DNSCSR, Y. Saad). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 1000
#endif
#define NR 256
#define NC 256
static float dns[NR][NC];
static float a[NR * NC];
static int ja[NR * NC], ia[NR + 1];
static int next;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  next = 0;
  for (int i = 0; i < NR; i++) {
    ia[i] = next;
    for (int j = 0; j < NC; j++)
      if (dns[i][j] != 0.0f) {
        ja[next] = j;
        a[next] = dns[i][j];
        next++;
      }
  }
  ia[NR] = next;
#pragma endscop
}
int main(void) {
  for (int i = 0; i < NR; i++)
    for (int j = 0; j < NC; j++)
      dns[i][j] = ((i * 7 + j * 3) % 5 == 0 || (i + j) % 11 == 0) ? ((i + 2 * j) % 13 + 1) / 13.0f : 0.0f;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int k = 0; k < next; k++) sum += a[k] * (1 + ja[k] % 7);
  for (int i = 0; i <= NR; i++) sum += 1e-3 * ia[i];
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
