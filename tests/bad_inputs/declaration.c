/* A declaration inside the region. */
void kernel(int n, double a[n], double b[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    double t = a[i];
    b[i] = t * t;
  }
#pragma endscop
}
