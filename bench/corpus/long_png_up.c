/* Undoing PNG's Up filter row after row, each byte plus the byte above it, with size_t indices (libpng's png_read_filter_row_up). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 2400
#endif
#define ROWS 512
#define ROWBYTES 4096
static unsigned char img[ROWS][ROWBYTES];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (size_t r = 1; r < ROWS; r++)
    for (size_t i = 0; i < ROWBYTES; i++)
      img[r][i] = (unsigned char)((img[r][i] + img[r - 1][i]) & 0xff);
#pragma endscop
}
int main(void) {
  for (size_t r = 0; r < ROWS; r++)
    for (size_t i = 0; i < ROWBYTES; i++) img[r][i] = (unsigned char)((r * 17 + i * 3 + i / 9) & 0xff);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (size_t r = 0; r < ROWS; r++)
    for (size_t i = 0; i < ROWBYTES; i++) sum += img[r][i] * (double)(r % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
