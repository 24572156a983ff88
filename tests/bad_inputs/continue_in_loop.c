/* A continue skips part of an iteration. */
void kernel(int n, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    if (i % 3 == 0)
      continue;
    a[i] = 1;
  }
#pragma endscop
}
