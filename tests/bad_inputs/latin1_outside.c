/* café ÿþ: Latin-1 and invalid UTF-8 outside the region must be kept byte for byte. */
static const char *name = "naïve €";

void kernel(int n, double a[n], double b[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = b[i] * 2;
#pragma endscop
}
/* fin été */
