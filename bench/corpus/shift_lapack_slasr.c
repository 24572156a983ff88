/* Plane rotations in rows j and j+1 applied down a matrix: a[j+1][i] = ..., then a[j][i] = ... (LAPACK's SLASR, SIDE='L', PIVOT='V', DIRECT='F'). */
#include <stdio.h>
#include <time.h>
#include <math.h>
#ifndef REPS
#define REPS 25000
#endif
#define M 64
#define NCOL 1024
static float a[M][NCOL], c[M], s[M];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int j = 0; j < M - 1; j++) {
    float ctemp = c[j];
    float stemp = s[j];
    if (ctemp != 1.0f || stemp != 0.0f)
      for (int i = 0; i < NCOL; i++) {
        float temp = a[j + 1][i];
        a[j + 1][i] = ctemp * temp - stemp * a[j][i];
        a[j][i] = stemp * temp + ctemp * a[j][i];
      }
  }
#pragma endscop
}
int main(void) {
  for (int j = 0; j < M; j++) {
    double theta = 0.1 * (j % 7);
    c[j] = (float)cos(theta);
    s[j] = (float)sin(theta);
    for (int i = 0; i < NCOL; i++) a[j][i] = ((i * 7 + j * 13) % 19) / 19.0f - 0.5f;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int j = 0; j < M; j++)
    for (int i = 0; i < NCOL; i++) sum += a[j][i] * (j % 3 + 1) + 1e-2 * a[j][i] * (i % 5);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
