void kernel(int n, double a[n])
{
  int i;
/* The old version, kept for reference:
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = 0;
#pragma endscop
*/
  a[0] = 1;
}
