/* A do-while loop is not a static control loop. */
void kernel(int n, double a[n])
{
  int i = 0;
#pragma scop
  do
    a[i] = 0;
  while (++i < n);
#pragma endscop
}
