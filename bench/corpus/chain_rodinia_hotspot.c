/* One explicit step of a chip's heat equation through the temporary delta, then the copy back (Rodinia's hotspot, single_iteration). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 770
#endif
#define ROW 512
#define COL 512
#define SC 0.2f
#define RX1 1.0f
#define RY1 1.0f
#define RZ1 0.1f
#define AMB 80.0f
static float temp[ROW][COL], result[ROW][COL], power[ROW][COL];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  for (int r = 1; r < ROW - 1; r++)
    for (int c = 1; c < COL - 1; c++) {
      float delta = SC * (power[r][c] + (temp[r + 1][c] + temp[r - 1][c] - 2.0f * temp[r][c]) * RY1 +
                          (temp[r][c + 1] + temp[r][c - 1] - 2.0f * temp[r][c]) * RX1 + (AMB - temp[r][c]) * RZ1);
      result[r][c] = temp[r][c] + delta;
    }
  for (int r = 1; r < ROW - 1; r++)
    for (int c = 1; c < COL - 1; c++)
      temp[r][c] = result[r][c];
#pragma endscop
}
int main(void) {
  for (int r = 0; r < ROW; r++)
    for (int c = 0; c < COL; c++) {
      temp[r][c] = 80.0f + ((r * 7 + c * 3) % 11);
      power[r][c] = ((r / 32 + c / 32) % 3) * 0.5f;
      result[r][c] = temp[r][c];
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int r = 0; r < ROW; r++)
    for (int c = 0; c < COL; c++) sum += temp[r][c] * (c % 3 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
