/* Members of a structure reached through a pointer that the region moves. */
struct grid { double cells[100]; };
void kernel(int n, struct grid *g)
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    g->cells[i] = 0;
  g = g + 1;
#pragma endscop
}
