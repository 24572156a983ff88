/* expect: declined: array access in a loop bound */
/* A CSR matrix-vector product: the inner loop's bounds read the row pointers (data-dependent loop). */
#include <stdio.h>

#define N 20

static int rowptr[N + 1], colidx[3 * N];
static double val[3 * N], x[N], y[N];

int main(void)
{
  int i, j, nz = 0;
  for (i = 0; i < N; i++) {
    rowptr[i] = nz;
    for (j = 0; j < 1 + i % 3; j++) {
      colidx[nz] = (i + j) % N;
      val[nz] = (double) (j + 1);
      nz++;
    }
    x[i] = (double) i;
  }
  rowptr[N] = nz;
#pragma scop
  for (i = 0; i < N; i++) {
    y[i] = 0.0;
    for (j = rowptr[i]; j < rowptr[i + 1]; j++)
      y[i] += val[j] * x[colidx[j]];
  }
#pragma endscop
  for (i = 0; i < N; i++)
    printf("%.6f\n", y[i]);
  return 0;
}
