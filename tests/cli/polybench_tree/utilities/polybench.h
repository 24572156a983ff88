/* A small stand-in for PolyBench/C's utilities/polybench.h: the macros a kernel's sizes go through. */
#ifndef POLYBENCH_H
#define POLYBENCH_H

#include <stdlib.h>

/* Loop bounds are the kernel's parameters (y) unless POLYBENCH_USE_SCALAR_LB asks for the macros (x). */
#ifdef POLYBENCH_USE_SCALAR_LB
# define POLYBENCH_LOOP_BOUND(x, y) x
#else
# define POLYBENCH_LOOP_BOUND(x, y) y
#endif

#define POLYBENCH_ARRAY(x) *x
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[dim1][dim2]
#define POLYBENCH_2D_ARRAY_DECL(var, type, dim1, dim2, ddim1, ddim2) \
  type (*var)[dim1][dim2] = (type (*)[dim1][dim2]) malloc(sizeof(type) * (dim1) * (dim2))
#define POLYBENCH_FREE_ARRAY(x) free((void *) x)

#define SCALAR_VAL(x) x

#endif
