/* A monotonic clock for waits that are bounded in time rather than in
   spins (the length of a pause instruction differs tenfold between CPUs).
   Kept apart from bg_platform.h so that only the modules that wait pull in
   <windows.h>. */
#ifndef BG_CLOCK_H
#define BG_CLOCK_H

#include <stdint.h>

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
/* Nanoseconds since an arbitrary start, never going back. */
static inline int64_t bg_clock_ns(void) {
    static LARGE_INTEGER freq;
    LARGE_INTEGER now;
    if (freq.QuadPart == 0)
        QueryPerformanceFrequency(&freq);  /* (the same value whoever reads it first) */
    QueryPerformanceCounter(&now);
    return (int64_t)((double)now.QuadPart * 1e9 / (double)freq.QuadPart);
}
#else
#include <time.h>
/* Nanoseconds since an arbitrary start, never going back. */
static inline int64_t bg_clock_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
#endif

#endif /* BG_CLOCK_H */
