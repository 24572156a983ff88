/* expect: optimized. A sum into a scalar member 's.sum' (kept in order: OpenMP cannot reduce a member). */
#include <stdio.h>
#define N 700
struct stats { double sum; double max; } st;
double a[N], b[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    a[i] = (i % 17) * 0.5;
  st.sum = 1.0;
#pragma scop
  for (i = 0; i < N; i++) {
    b[i] = a[i] * 2;
    st.sum += b[i];
  }
#pragma endscop
  printf("%.6f %.6f\n", st.sum, b[N - 1]);
  return 0;
}
