/* A valid nest of depth 8 (a 3^8 iteration space): optimized quickly and correctly. */
#include <stdio.h>

#define N 3

static double A[N][N][N][N][N][N][N][N];
static double B[N][N][N][N][N][N][N][N];

static void kernel(int n)
{
  int a, b, c, d, e, f, g, h;

#pragma scop
  for (a = 1; a < n; a++)
    for (b = 1; b < n; b++)
      for (c = 0; c < n; c++)
        for (d = 0; d < n; d++)
          for (e = 0; e < n; e++)
            for (f = 0; f < n; f++)
              for (g = 0; g < n; g++)
                for (h = 0; h < n; h++)
                  A[a][b][c][d][e][f][g][h] = A[a - 1][b][c][d][e][f][g][h] + 0.5 * A[a][b - 1][c][d][e][f][g][h] + B[a][b][c][d][e][f][g][h];
#pragma endscop
}

int main(void)
{
  int a, b, c, d, e, f, g, h;
  long k = 0;

  for (a = 0; a < N; a++) for (b = 0; b < N; b++) for (c = 0; c < N; c++) for (d = 0; d < N; d++) for (e = 0; e < N; e++) for (f = 0; f < N; f++) for (g = 0; g < N; g++) for (h = 0; h < N; h++) {
    A[a][b][c][d][e][f][g][h] = (double)(k % 7);
    B[a][b][c][d][e][f][g][h] = 0.5 * (double)(k % 5);
    k++;
  }
  kernel(N);
  for (a = 0; a < N; a++) for (b = 0; b < N; b++) for (c = 0; c < N; c++) for (d = 0; d < N; d++) for (e = 0; e < N; e++) for (f = 0; f < N; f++) for (g = 0; g < N; g++) for (h = 0; h < N; h++)
    printf("%.17g ", A[a][b][c][d][e][f][g][h]);
  printf("\n");
  return 0;
}
