/* A small stand-in for PolyBench/C's utilities/polybench.c: allocation and the kernel timer. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "polybench.h"

static double polybench_t_start, polybench_t_end;

static double polybench_now(void)
{
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec + now.tv_nsec * 1e-9;
}

void *polybench_alloc_data(unsigned long long n, int element_size)
{
  void *data = calloc(n, element_size);
  if (data == NULL) {
    fprintf(stderr, "polybench: out of memory\n");
    exit(1);
  }
  return data;
}

void polybench_timer_start(void) { polybench_t_start = polybench_now(); }

void polybench_timer_stop(void) { polybench_t_end = polybench_now(); }

void polybench_timer_print(void) { printf("%0.6f\n", polybench_t_end - polybench_t_start); }
