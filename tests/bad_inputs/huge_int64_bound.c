/* Bounds at the very end of a 64-bit integer. */
void kernel(double a[10])
{
  long i;
#pragma scop
  for (i = 9223372036854775797; i < 9223372036854775807; i++)
    a[i - 9223372036854775797] = 2 * a[i - 9223372036854775797];
#pragma endscop
}
