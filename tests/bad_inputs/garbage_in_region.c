/* Control characters and invalid UTF-8 inside a region. */
void kernel(double a[10])
{
#pragma scop
  a[0] = ÿþ;
#pragma endscop
}
