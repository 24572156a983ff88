/* A region with nothing in it but a comment. */
void kernel(void)
{
#pragma scop
  /* nothing to do */
#pragma endscop
}
