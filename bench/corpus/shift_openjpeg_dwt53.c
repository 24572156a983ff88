/* The forward 5/3 lifting of JPEG 2000 in one loop: the predict step writes d[i], the update step reads d[i-1] and d[i] (OpenJPEG's opj_dwt_encode_1). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 840
#endif
#define R 128
#define W 2048
#define H (W / 2)
static int x[R][W + 1];
static int s[R][H], d[R][H];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int r = 0; r < R; r++) {
    d[r][0] = x[r][1] - ((x[r][0] + x[r][2]) >> 1);
    s[r][0] = x[r][0] + ((d[r][0] + d[r][0] + 2) >> 2);
    for (int i = 1; i < H; i++) {
      d[r][i] = x[r][2 * i + 1] - ((x[r][2 * i] + x[r][2 * i + 2]) >> 1);
      s[r][i] = x[r][2 * i] + ((d[r][i - 1] + d[r][i] + 2) >> 2);
    }
  }
#pragma endscop
}
int main(void) {
  for (int r = 0; r < R; r++) {
    for (int k = 0; k < W; k++) x[r][k] = (k * 37 + r * 11) % 256 - 128;
    x[r][W] = x[r][W - 2];
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int r = 0; r < R; r++)
    for (int i = 0; i < H; i++) sum += s[r][i] * (i % 3 + 1) + 0.5 * d[r][i] * (r % 2 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
