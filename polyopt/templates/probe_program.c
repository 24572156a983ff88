#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#ifndef GMAX
# define GMAX 64
#endif
#ifndef VMAX
# define VMAX 64
#endif
#ifndef BMAX
# define BMAX 16
#endif
static double A[GMAX][GMAX], B[GMAX][GMAX], C[GMAX][GMAX], V[VMAX][VMAX], x[VMAX], y[VMAX], w[VMAX], z[VMAX];
static double E[BMAX][BMAX][BMAX], W[BMAX][BMAX], S[BMAX];
extern char *openblas_get_corename(void) __attribute__((weak));
extern char *openblas_get_config(void) __attribute__((weak));

static void gemm(int n)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}

static void syrk(int n)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++)
      for (k = 0; k < n; k++)
        C[i][j] += A[i][k] * A[j][k];
#pragma endscop
}

static void symm(int n)
{
  int i, j, k;
  double t;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      t = 0;
      for (k = 0; k < i; k++) {
        C[k][j] += 1.5 * B[i][j] * A[i][k];
        t += B[k][j] * A[i][k];
      }
      C[i][j] = 1.2 * C[i][j] + 1.5 * B[i][j] * A[i][i] + 1.5 * t;
    }
#pragma endscop
}

static void trmm(int n)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = i + 1; k < n; k++)
        B[i][j] += A[k][i] * B[k][j];
#pragma endscop
}

static void batched(int n)
{
  int r, q, p, s;
#pragma scop
  for (r = 0; r < n; r++)
    for (q = 0; q < n; q++) {
      for (p = 0; p < n; p++) {
        S[p] = 0.0;
        for (s = 0; s < n; s++)
          S[p] += E[r][q][s] * W[s][p];
      }
      for (p = 0; p < n; p++)
        E[r][q][p] = S[p];
    }
#pragma endscop
}

static void gemv(int n)
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      y[i] += V[i][j] * x[j];
#pragma endscop
}

static void shared(int n)
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      y[i] += V[i][j] * x[j];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      z[i] += V[j][i] * w[j];
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc < 3 || argv[1][0] == 'i') {
    if (openblas_get_corename && openblas_get_config)
      printf("%s\n%s\n", openblas_get_corename(), openblas_get_config());
    return 0;
  }
  char kind = argv[1][0];
  int matrix = kind == 'm' || kind == 'k' || kind == 'y' || kind == 't', n = atoi(argv[2]);
  if (kind == 'b')
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        W[i][j] = ((i + j) % 13) / 13.0;
        for (int k = 0; k < n; k++)
          E[i][j][k] = ((i * j + k) % 11) / 11.0;
      }
  else
    for (int i = 0; i < n; i++) {
      if (i < VMAX) {
        x[i] = (i % 7) / 7.0;
        w[i] = (i % 5) / 5.0;
      }
      for (int j = 0; j < n; j++) {
        if (matrix) {
          A[i][j] = ((i * j) % 11) / 11.0;
          B[i][j] = ((i + j) % 13) / 13.0;
        } else
          V[i][j] = ((i * j) % 11) / 11.0;
      }
    }
  double team = 0;
#pragma omp parallel for reduction(+: team)
  for (int i = 0; i < (n < VMAX ? n : VMAX); i++)
    team += x[i];
  double start = omp_get_wtime();
  if (kind == 'm')
    gemm(n);
  else if (kind == 'k')
    syrk(n);
  else if (kind == 'y')
    symm(n);
  else if (kind == 't')
    trmm(n);
  else if (kind == 's')
    shared(n);
  else if (kind == 'b')
    batched(n);
  else
    gemv(n);
  printf("%.9f\n", omp_get_wtime() - start);
  if (kind == 'b')
    fprintf(stderr, "%g %g\n", E[n / 2][n / 3][n / 4], team);
  else if (matrix)
    fprintf(stderr, "%g %g %g\n", C[n / 2][n / 3], B[n / 3][n / 2], team);
  else
    fprintf(stderr, "%g %g %g\n", y[n / 2], z[n / 3], team);
  return 0;
}
