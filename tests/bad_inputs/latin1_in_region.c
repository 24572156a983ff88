/* Latin-1 bytes inside the region: café. */
void kernel(int n, double a[n])
{
  int i;
#pragma scop
  /* naïve ÿ loop */
  for (i = 0; i < n; i++)
    a[i] = a[i] * 2; /* été */
#pragma endscop
}
