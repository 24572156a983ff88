/* A while loop is not a static control loop. */
void kernel(int n, double a[n])
{
#pragma scop
  while (n > 0)
    a[--n] = 0;
#pragma endscop
}
