/* The loop body changes its own iterator. */
void kernel(int n, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    a[i] = 0;
    i = i + 1;
  }
#pragma endscop
}
