/* polybench_lite.h: the small harness shared by polyopt's example suite.
 *
 * It mirrors the conventions of PolyBench/C 4.2.1 that polyopt must keep
 * intact: _PB_* loop bounds, DATA_TYPE, SCALAR_VAL, the *_FUN math macros and
 * the POLYBENCH_nD array-parameter macros.  Only the harness is ours; the
 * kernels in this folder are written from their mathematical definitions.
 */
#ifndef POLYBENCH_LITE_H
#define POLYBENCH_LITE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Element type: double unless the kernel (or -DDATA_TYPE_IS_FLOAT) says so. */
#ifdef DATA_TYPE_IS_FLOAT
# define DATA_TYPE float
# define DATA_PRINTF_MODIFIER "%.9g "
# define SCALAR_VAL(x) x##f
# define SQRT_FUN(x) sqrtf(x)
# define EXP_FUN(x) expf(x)
# define POW_FUN(x, y) powf(x, y)
#elif defined(DATA_TYPE_IS_INT)
# define DATA_TYPE int
# define DATA_PRINTF_MODIFIER "%d "
# define SCALAR_VAL(x) x
# define SQRT_FUN(x) sqrt(x)
# define EXP_FUN(x) exp(x)
# define POW_FUN(x, y) pow(x, y)
#else
# define DATA_TYPE double
# define DATA_PRINTF_MODIFIER "%.17g "
# define SCALAR_VAL(x) x
# define SQRT_FUN(x) sqrt(x)
# define EXP_FUN(x) exp(x)
# define POW_FUN(x, y) pow(x, y)
#endif

/* Loop bounds are the compile-time sizes, as in PolyBench's default build. */
#define POLYBENCH_LOOP_BOUND(x, y) x

/* Array parameters: PolyBench's C99 prototypes without padding. */
#define POLYBENCH_1D(var, d1, dd1) var[d1]
#define POLYBENCH_2D(var, d1, d2, dd1, dd2) var[d1][d2]
#define POLYBENCH_3D(var, d1, d2, d3, dd1, dd2, dd3) var[d1][d2][d3]

/* Heap allocation of the arrays, so that LARGE sizes do not overflow the stack. */
#define POLYBENCH_ALLOC(n, type) ((type *)polybench_lite_alloc((size_t)(n) * sizeof(type)))
#define POLYBENCH_1D_ARRAY_DECL(var, type, d1, dd1) \
  type(*var)[d1] = (type(*)[d1])POLYBENCH_ALLOC(d1, type)
#define POLYBENCH_2D_ARRAY_DECL(var, type, d1, d2, dd1, dd2) \
  type(*var)[d1][d2] = (type(*)[d1][d2])POLYBENCH_ALLOC((size_t)(d1) * (d2), type)
#define POLYBENCH_3D_ARRAY_DECL(var, type, d1, d2, d3, dd1, dd2, dd3) \
  type(*var)[d1][d2][d3] = (type(*)[d1][d2][d3])POLYBENCH_ALLOC((size_t)(d1) * (d2) * (d3), type)
#define POLYBENCH_ARRAY(x) *x
#define POLYBENCH_FREE_ARRAY(x) free((void *)x)

static void *polybench_lite_alloc(size_t bytes)
{
  void *p = NULL;
  if (posix_memalign(&p, 64, bytes ? bytes : 1) != 0) {
    fprintf(stderr, "polybench_lite: out of memory\n");
    exit(1);
  }
  memset(p, 0, bytes);
  return p;
}

/* Timing: with -DPOLYBENCH_TIME (as PolyBench's), the kernel's wall time goes to stderr as
 * "polybench-time: <seconds>"; without it the program prints only its results, so that two builds
 * of it can be compared (polyopt check, polyopt tune). */
static double polybench_lite_t0;
static double polybench_lite_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Before the timer, as PolyBench's harness does: a buffer larger than the caches read by an OpenMP
 * loop, so that the kernel starts with cold caches and, in an OpenMP build, with the OpenMP threads
 * already started (the time is the kernel's, not the process's one-time start of its threads). */
#define POLYBENCH_LITE_FLUSH_KB 32770
static void polybench_lite_flush(void)
{
  const long count = POLYBENCH_LITE_FLUSH_KB * 1024L / (long)sizeof(double);
  double *flush = calloc((size_t)count, sizeof(double)), sum = 0;
  if (!flush)
    return;
#ifdef _OPENMP
#pragma omp parallel for reduction(+: sum)
#endif
  for (long i = 0; i < count; i++)
    sum += flush[i];
  if (sum != 0)
    fprintf(stderr, "polybench_lite: flush buffer not zero\n");
  free(flush);
}
#define polybench_start_instruments (polybench_lite_flush(), polybench_lite_t0 = polybench_lite_now())
#ifdef POLYBENCH_TIME
#define polybench_stop_instruments \
  fprintf(stderr, "polybench-time: %.6f\n", polybench_lite_now() - polybench_lite_t0)
#else
#define polybench_stop_instruments ((void)polybench_lite_t0)
#endif

/* Output dump: every live-out array goes to stdout, one named block each. */
#define POLYBENCH_DUMP_START
#define POLYBENCH_DUMP_FINISH fflush(stdout)
#define POLYBENCH_DUMP_BEGIN(name) printf("begin dump: %s\n", name)
#define POLYBENCH_DUMP_END(name) printf("\nend dump: %s\n", name)
#define POLYBENCH_DUMP_TARGET stdout

#endif
