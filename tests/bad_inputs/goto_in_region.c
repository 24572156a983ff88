/* A goto out of the loop. */
void kernel(int n, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    a[i] = 0;
    if (i == 3)
      goto done;
  }
#pragma endscop
done:
  return;
}
