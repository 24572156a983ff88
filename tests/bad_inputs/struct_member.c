/* Arrays reached through a structure member. */
struct grid { double cells[100]; };
void kernel(int n, struct grid *g)
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    g->cells[i] = 0;
#pragma endscop
}
