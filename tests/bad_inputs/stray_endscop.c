/* A complete region, then an '#pragma endscop' that closes nothing. */
void kernel(int n, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = 0;
#pragma endscop
  a[0] = 1;
    #pragma endscop
}
