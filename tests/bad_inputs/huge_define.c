/* A macro with a huge value used as a loop bound and in a subscript. */
#define BIG 9223372036854775807
void kernel(int n, double a[n])
{
  long i;
#pragma scop
  for (i = BIG - n; i < BIG; i++)
    a[i - BIG + n] = 0.5 * a[i - BIG + n];
#pragma endscop
}
