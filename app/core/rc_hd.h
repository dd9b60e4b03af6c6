/* rc_hd.h: the one macro that lets per-ray code compile for the CPU (C11) and the GPU (CUDA).
 *
 * RC_HD marks a function callable on both sides: __host__ __device__ under nvcc, nothing in C.
 * RC_FN is the form every header function takes: static inline, so each translation unit
 * (a .c loop or a .cu kernel file) gets its own copy and no symbols clash at link time. */
#ifndef RC_HD_H
#define RC_HD_H

#include <math.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define RC_HD __host__ __device__
#else
#define RC_HD
#endif

#define RC_FN static inline RC_HD

/* RC_ALIGN16 on a record's first member aligns the record to 16 bytes, so a GPU thread moves
 * it with 16-byte loads and stores (C11 _Alignas, C++ alignas under nvcc). */
#if defined(__cplusplus)
#define RC_ALIGN16 alignas(16)
#else
#define RC_ALIGN16 _Alignas(16)
#endif

#define RC_PI 3.14159265358979323846f

#endif /* RC_HD_H */
