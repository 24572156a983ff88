/* 'break' makes the trip count data-dependent. */
void kernel(int n, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    a[i] = 0;
    break;
  }
#pragma endscop
}
