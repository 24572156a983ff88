/* Another pragma inside the region: the region is outside the model and must be kept. */
void kernel(int n, double a[n])
{
  int i;
#pragma scop
#pragma omp parallel for
  for (i = 0; i < n; i++)
    a[i] = 0;
#pragma endscop
}
