/* CRLF line ends. */
void kernel(int n, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = 0;
#pragma endscop
}
