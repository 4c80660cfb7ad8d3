/* Which vector instructions the hot loops may use: those the processor has,
 * at most the level DL_SIMD names (plain, avx2, avx512), so that every path
 * can be run and compared with the plain C one on one machine.  Every path
 * gives the same output; only the speed differs.
 *
 * Threads: both functions may be called from several threads at once: the
 * processor's level, and DL_SIMD, are read once, by whichever thread first
 * asks (pthread_once). */
#ifndef DL_SIMD_H
#define DL_SIMD_H

enum simd_level {
	SIMD_PLAIN,	/* portable C */
	SIMD_AVX2,	/* AVX2 and BMI2 (Intel Haswell, AMD Zen, and later) */
	SIMD_AVX512,	/* AVX-512 F and VL */
};

/* 1 when the paths of this level may be taken. */
int simd_allowed(enum simd_level level);
/* "plain", "avx2" or "avx512": the best level allowed, for messages. */
const char *simd_level_name(void);

#endif
