/* Daubechies D4 by lifting in one loop: d[n] reads s[n-1], s[n-1] is then updated from d[n] (I. Kaplan's lifting-scheme D4 of bearcave.com). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 370
#endif
#define R 64
#define H 2048
#define R3 1.7320508075688772
#define C1 (R3 / 4.0)
#define C2 ((R3 - 2.0) / 4.0)
#define N1 ((R3 - 1.0) / 1.4142135623730951)
#define N2 ((R3 + 1.0) / 1.4142135623730951)
static double xs[R][H], xd[R][H];
static double s1[R][H], d1[R][H], s2[R][H], d2[R][H];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int r = 0; r < R; r++) {
    s1[r][H - 1] = xs[r][H - 1] + R3 * xd[r][H - 1];
    s1[r][0] = xs[r][0] + R3 * xd[r][0];
    d1[r][0] = xd[r][0] - C1 * s1[r][0] - C2 * s1[r][H - 1];
    for (int n = 1; n < H; n++) {
      s1[r][n] = xs[r][n] + R3 * xd[r][n];
      d1[r][n] = xd[r][n] - C1 * s1[r][n] - C2 * s1[r][n - 1];
      s2[r][n - 1] = N1 * (s1[r][n - 1] - d1[r][n]);
      d2[r][n] = N2 * d1[r][n];
    }
    s2[r][H - 1] = N1 * (s1[r][H - 1] - d1[r][0]);
    d2[r][0] = N2 * d1[r][0];
  }
#pragma endscop
}
int main(void) {
  for (int r = 0; r < R; r++)
    for (int n = 0; n < H; n++) {
      xs[r][n] = ((n * 13 + r * 5) % 41) / 41.0;
      xd[r][n] = ((n * 7 + r * 3) % 37) / 37.0;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int r = 0; r < R; r++)
    for (int n = 0; n < H; n++) sum += s2[r][n] * (n % 3 + 1) + 0.5 * d2[r][n] * (r % 2 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
