/* Dataset sizes of mm (LARGE by default). */
#ifndef MM_H
#define MM_H

#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(MEDIUM_DATASET) && \
    !defined(LARGE_DATASET) && !defined(EXTRALARGE_DATASET)
# define LARGE_DATASET
#endif

#if !defined(NI) && !defined(NJ) && !defined(NK)
# ifdef MINI_DATASET
#  define NI 16
#  define NJ 18
#  define NK 20
# endif
# ifdef SMALL_DATASET
#  define NI 40
#  define NJ 44
#  define NK 48
# endif
# ifdef MEDIUM_DATASET
#  define NI 200
#  define NJ 220
#  define NK 240
# endif
# ifdef LARGE_DATASET
#  define NI 1000
#  define NJ 1100
#  define NK 1200
# endif
# ifdef EXTRALARGE_DATASET
#  define NI 2000
#  define NJ 2300
#  define NK 2600
# endif
#endif

#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)

#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "

#endif
