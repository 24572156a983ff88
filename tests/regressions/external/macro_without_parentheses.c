/* case: macro_without_parentheses
 *
 * Option sets: all (default shown).
 * Commands:
 *   gcc -O1 macro_without_parentheses.c -o orig && ./orig           -> 100 102 ... 112 7 8 ...
 *   polyopt macro_without_parentheses.c -o out.c
 *   gcc -O2 -march=native -fopenmp out.c -o opt && ./opt             -> the first 12 elements updated twice
 *
 * Diagnosis: a macro constant is text, not a value: `#define W NN+1` makes `W*2` expand to
 * `NN+1*2` (7) and `2*W` to `2*NN+1` (11), but the model read W as the value 6 and bounded
 * both loops by 12.  A macro whose expansion is not one operand is now replaced by its
 * expansion before the region is parsed (polyopt.frontend.macros).
 */
#include <stdio.h>
#define NN 5
#define W NN+1
static double A[20], X[20];
static void kernel(void) {
  int i;
#pragma scop
  for (i = 0; i < W*2; i++)
    A[i] += X[i];
  for (i = 0; i < 2*W; i++)
    A[i] = A[i] * 2;
#pragma endscop
}
int main(void) {
  for (int a = 0; a < 20; a++) { A[a] = a; X[a] = 100 + a; }
  kernel();
  for (int a = 0; a < 20; a++) printf("%g\n", A[a]);
  return 0;
}
