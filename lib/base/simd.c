#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/simd.h"

static const char *const level_names[] = { "plain", "avx2", "avx512" };

/* The best level this processor has. */
static enum simd_level
processor_level(void)
{
#if defined(__x86_64__) && defined(__GNUC__) && !defined(DL_NO_ASM)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
	    __builtin_cpu_supports("bmi2"))
		return SIMD_AVX512;
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2"))
		return SIMD_AVX2;
#endif
	return SIMD_PLAIN;
}

/* DL_SIMD caps the level; a value it does not know means plain, the path
 * that is always right. */
static enum simd_level best;
static pthread_once_t level_once = PTHREAD_ONCE_INIT;

static void
find_level(void)
{
	const char *cap = getenv("DL_SIMD");

	best = processor_level();
	if (cap != NULL && *cap != '\0') {
		int allowed = SIMD_PLAIN;
		for (int i = SIMD_PLAIN; i <= SIMD_AVX512; i++)
			if (strcmp(cap, level_names[i]) == 0)
				allowed = i;
		if (allowed < (int)best)
			best = (enum simd_level)allowed;
	}
}

/* Found once, whichever thread first asks. */
static enum simd_level
best_level(void)
{
	pthread_once(&level_once, find_level);
	return best;
}

int
simd_allowed(enum simd_level level)
{
	return level <= best_level();
}

const char *
simd_level_name(void)
{
	return level_names[best_level()];
}
