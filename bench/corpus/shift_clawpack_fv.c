/* A first-order finite-volume step q(i) -= dtdx*(apdq(i) + amdq(i+1)), the fluctuations of face i+1 computed in the same loop (CLAWPACK's step1, R. J. LeVeque). */
#include <stdio.h>
#include <time.h>
#ifndef REPS
#define REPS 1200
#endif
#define N 32000
#define DTDX 0.4
static double q[N], qn[N], u[N + 1], amdq[N + 1], apdq[N + 1];
static __attribute__((noinline)) void kernel(void) {
#pragma scop
  amdq[1] = (u[1] < 0.0 ? u[1] : 0.0) * (q[1] - q[0]);
  apdq[1] = (u[1] > 0.0 ? u[1] : 0.0) * (q[1] - q[0]);
  for (int i = 1; i < N - 1; i++) {
    amdq[i + 1] = (u[i + 1] < 0.0 ? u[i + 1] : 0.0) * (q[i + 1] - q[i]);
    apdq[i + 1] = (u[i + 1] > 0.0 ? u[i + 1] : 0.0) * (q[i + 1] - q[i]);
    qn[i] = q[i] - DTDX * (apdq[i] + amdq[i + 1]);
  }
  for (int i = 1; i < N - 1; i++)
    q[i] = qn[i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) q[i] = ((i / 50) % 7) / 7.0 + ((i * 13) % 17) / 170.0;
  for (int i = 0; i <= N; i++) u[i] = ((i / 400) % 5 - 2) / 2.0 + ((i % 3) - 1) * 0.1;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int rep = 0; rep < REPS; rep++) { kernel(); }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += q[i] * (i % 5 + 1);
  printf("checksum %.6e time %.6f s\n", sum, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
