/* Undoing PNG's Paeth filter, the nearest of left, above and upper-left predicts, size_t indices (libpng's png_read_filter_row_paeth_multibyte_pixel). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 48
#endif
#define ROWS 256
#define BPP 3
#define ROWBYTES (BPP * 1024)
static unsigned char img[ROWS][ROWBYTES];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (size_t r = 1; r < ROWS; r++) {
    for (size_t i = 0; i < BPP; i++)
      img[r][i] = (unsigned char)((img[r][i] + img[r - 1][i]) & 0xff);
    for (size_t i = BPP; i < ROWBYTES; i++) {
      int a = img[r][i - BPP];
      int b = img[r - 1][i];
      int c = img[r - 1][i - BPP];
      int p = b - c;
      int pc = a - c;
      int pa = p < 0 ? -p : p;
      int pb = pc < 0 ? -pc : pc;
      pc = (p + pc) < 0 ? -(p + pc) : p + pc;
      if (pb < pa) {
        pa = pb;
        a = b;
      }
      if (pc < pa)
        a = c;
      img[r][i] = (unsigned char)((a + img[r][i]) & 0xff);
    }
  }
#pragma endscop
}
int main(void) {
  for (size_t r = 0; r < ROWS; r++)
    for (size_t i = 0; i < ROWBYTES; i++) img[r][i] = (unsigned char)((r * 29 + i * 11 + i / 13) & 0xff);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (size_t r = 0; r < ROWS; r++)
    for (size_t i = 0; i < ROWBYTES; i++) sum += img[r][i] * (double)(i % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
