/* A floating-point loop counter. */
void kernel(int n, double a[n])
{
  double x;
#pragma scop
  for (x = 0.0; x < n; x += 0.5)
    a[0] = a[0] + x;
#pragma endscop
}
