/* A region that closes one function and opens another is not a statement sequence. */
void first(int n, double a[n])
{
#pragma scop
  for (int i = 0; i < n; i++)
    a[i] = 0;
}

void second(int n, double b[n])
{
  for (int i = 0; i < n; i++)
    b[i] = 1;
#pragma endscop
}
