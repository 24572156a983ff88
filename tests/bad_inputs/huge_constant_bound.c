/* A constant bound beyond 32 bits: valid C with long iterators; polyopt must not overflow. */
void kernel(double a[1000])
{
  long i;
#pragma scop
  for (i = 999999999000; i < 1000000000000; i++)
    a[i - 999999999000] = a[i - 999999999000] + 1;
#pragma endscop
}
