/* The four lifting steps of the JPEG 2000 9/7 transform in one loop, the second pair one sample behind the first (OpenJPEG's irreversible DWT). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 310
#endif
#define R 64
#define H 2048
#define A (-1.586134342f)
#define B (-0.052980118f)
#define G 0.882911075f
#define D 0.443506852f
static float xe[R][H + 1], xo[R][H];
static float d1[R][H], s1[R][H], d2[R][H], s2[R][H];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int r = 0; r < R; r++) {
    d1[r][0] = xo[r][0] + A * (xe[r][0] + xe[r][1]);
    s1[r][0] = xe[r][0] + B * (d1[r][0] + d1[r][0]);
    d1[r][1] = xo[r][1] + A * (xe[r][1] + xe[r][2]);
    s1[r][1] = xe[r][1] + B * (d1[r][0] + d1[r][1]);
    d2[r][0] = d1[r][0] + G * (s1[r][0] + s1[r][1]);
    s2[r][0] = s1[r][0] + D * (d2[r][0] + d2[r][0]);
    for (int i = 1; i < H - 1; i++) {
      d1[r][i + 1] = xo[r][i + 1] + A * (xe[r][i + 1] + xe[r][i + 2]);
      s1[r][i + 1] = xe[r][i + 1] + B * (d1[r][i] + d1[r][i + 1]);
      d2[r][i] = d1[r][i] + G * (s1[r][i] + s1[r][i + 1]);
      s2[r][i] = s1[r][i] + D * (d2[r][i - 1] + d2[r][i]);
    }
    d2[r][H - 1] = d1[r][H - 1] + G * (s1[r][H - 1] + s1[r][H - 1]);
    s2[r][H - 1] = s1[r][H - 1] + D * (d2[r][H - 2] + d2[r][H - 1]);
  }
#pragma endscop
}
int main(void) {
  for (int r = 0; r < R; r++) {
    for (int i = 0; i < H; i++) {
      xe[r][i] = ((2 * i * 13 + r * 7) % 64) / 64.0f;
      xo[r][i] = ((2 * i * 29 + r * 3) % 64) / 64.0f;
    }
    xe[r][H] = xe[r][H - 1];
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int r = 0; r < R; r++)
    for (int i = 0; i < H; i++) sum += s2[r][i] * (i % 3 + 1) + 0.5 * d2[r][i] * (r % 2 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
