/* CRC-32 of many buffers, one table look-up per byte, with size_t indices and an unsigned long register (zlib's crc32, its DO1 byte loop). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 170
#endif
#define NBUF 64
#define LEN 4096
static unsigned char buf[NBUF][LEN];
static unsigned long crc_table[256], crc[NBUF];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (size_t b = 0; b < NBUF; b++) {
    unsigned long c = 0xffffffffUL;
    for (size_t n = 0; n < LEN; n++)
      c = crc_table[(c ^ buf[b][n]) & 0xff] ^ (c >> 8);
    crc[b] = c ^ 0xffffffffUL;
  }
#pragma endscop
}
int main(void) {
  for (unsigned long n = 0; n < 256; n++) {
    unsigned long c = n;
    for (int k = 0; k < 8; k++) c = (c & 1) ? 0xedb88320UL ^ (c >> 1) : c >> 1;
    crc_table[n] = c;
  }
  for (size_t b = 0; b < NBUF; b++)
    for (size_t n = 0; n < LEN; n++) buf[b][n] = (unsigned char)((b * 7 + n * 13 + n / 17) & 0xff);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (size_t b = 0; b < NBUF; b++) sum += (double)(crc[b] % 100003UL) * (b % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
