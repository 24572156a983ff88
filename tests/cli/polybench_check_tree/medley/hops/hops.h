/* Dataset sizes of hops (LARGE by default). */
#ifndef HOPS_H
#define HOPS_H

#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(MEDIUM_DATASET) && \
    !defined(LARGE_DATASET) && !defined(EXTRALARGE_DATASET)
# define LARGE_DATASET
#endif

#if !defined(N)
# ifdef MINI_DATASET
#  define N 24
# endif
# ifdef SMALL_DATASET
#  define N 60
# endif
# ifdef MEDIUM_DATASET
#  define N 250
# endif
# ifdef LARGE_DATASET
#  define N 1000
# endif
# ifdef EXTRALARGE_DATASET
#  define N 2000
# endif
#endif

#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

#define DATA_TYPE int
#define DATA_PRINTF_MODIFIER "%d "

#endif
