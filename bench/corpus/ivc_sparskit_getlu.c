/* Splitting the rows of a CSR matrix into strict lower, diagonal and strict upper parts, a counter for each part (SPARSKIT's GETL and GETU in one pass). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 780
#endif
#define N 8000
#define NZR 9
static float a[N * NZR], al[N * NZR], au[N * NZR], diag[N];
static int ja[N * NZR], ia[N + 1], jl[N * NZR], ju[N * NZR], il[N + 1], iu[N + 1];
static int kl, ku;
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  kl = 0;
  ku = 0;
  for (int i = 0; i < N; i++) {
    il[i] = kl;
    iu[i] = ku;
    for (int k = ia[i]; k < ia[i + 1]; k++) {
      if (ja[k] < i) {
        al[kl] = a[k];
        jl[kl] = ja[k];
        kl++;
      } else if (ja[k] > i) {
        au[ku] = a[k];
        ju[ku] = ja[k];
        ku++;
      } else {
        diag[i] = a[k];
      }
    }
  }
  il[N] = kl;
  iu[N] = ku;
#pragma endscop
}
int main(void) {
  for (int i = 0; i <= N; i++) ia[i] = NZR * i;
  for (int i = 0; i < N; i++)
    for (int m = 0; m < NZR; m++) {
      ja[NZR * i + m] = (i + (m - 4) * (1 + i % 37) + 4 * N) % N;
      a[NZR * i + m] = ((i * 5 + m * 3) % 17 + 1) / 17.0f;
    }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int k = 0; k < kl; k++) sum += al[k] * (1 + jl[k] % 3);
  for (int k = 0; k < ku; k++) sum += au[k] * (1 + ju[k] % 5);
  for (int i = 0; i < N; i++) sum += diag[i] + 1e-4 * (il[i] + iu[i]);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
