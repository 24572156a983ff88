/* A macro definition inside the region: the region is outside the model and must be kept. */
void kernel(int n, double a[n])
{
  int i;
#pragma scop
#define ZERO 0.0
  for (i = 0; i < n; i++)
    a[i] = ZERO;
#pragma endscop
}
