/* Dataset sizes of the scale kernel, chosen by -DMINI_DATASET ... -DEXTRALARGE_DATASET (LARGE by default). */
#ifndef SCALE_H
#define SCALE_H

#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(MEDIUM_DATASET) && \
    !defined(LARGE_DATASET) && !defined(EXTRALARGE_DATASET)
# define LARGE_DATASET
#endif

#if !defined(NI) && !defined(NJ)
# ifdef MINI_DATASET
#  define NI 20
#  define NJ 30
# endif
# ifdef SMALL_DATASET
#  define NI 60
#  define NJ 80
# endif
# ifdef MEDIUM_DATASET
#  define NI 200
#  define NJ 240
# endif
# ifdef LARGE_DATASET
#  define NI 1000
#  define NJ 1200
# endif
# ifdef EXTRALARGE_DATASET
#  define NI 2000
#  define NJ 2600
# endif
#endif

#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)

#define DATA_TYPE double

#endif
