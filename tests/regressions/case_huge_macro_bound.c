/* polyopt flags:  */
/* A loop whose bounds involve a macro beyond the range of 'int' (BIG = 2^63 - 1).  polyopt
   cannot see the macro's value, reads BIG as a parameter and generates an 'int' iterator. */
#include <stdio.h>

#define BIG 9223372036854775807

static double a[10];

static void kernel(int n)
{
  long i;

#pragma scop
  for (i = BIG - n; i < BIG; i++)
    a[i - BIG + n] = 0.5 * a[i - BIG + n] + 1;
#pragma endscop
}

int main(void)
{
  int i;

  for (i = 0; i < 10; i++)
    a[i] = i;
  kernel(10);
  for (i = 0; i < 10; i++)
    printf("%.17g ", a[i]);
  printf("\n");
  return 0;
}
