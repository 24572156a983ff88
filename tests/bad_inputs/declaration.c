/* An array declared inside the region. */
void kernel(int n, double a[n], double b[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    double t[2] = {a[i], a[i]};
    b[i] = t[0] * t[1];
  }
#pragma endscop
}
