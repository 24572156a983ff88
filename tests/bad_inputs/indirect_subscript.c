/* An array subscripted by an array element (a scatter): optimized, its write a may-write. */
void kernel(int n, int idx[n], double a[n], double b[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[idx[i]] = b[i];
#pragma endscop
}
