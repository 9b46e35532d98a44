/* Result buffers for batches: see bg_rowbuf.h. */
#include "bg_rowbuf.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#define BG_BUF_HEADER 64
/* Buffers from this size up are 2 MiB-aligned (a huge page) and may be kept. */
#define BG_BUF_BIG ((size_t)1 << 21)
/* A released buffer is kept when at most this many bytes of it may have been
   written: that is the memory it holds on to, whatever its capacity. */
#define BG_BUF_KEEP_MAX ((size_t)1 << 27)

static char *bg_kept = NULL;

size_t bg_buf_capacity(const char *data) {
    return data ? ((const size_t *)(data - BG_BUF_HEADER))[0] : 0;
}

static size_t bg_buf_written(const char *data) {
    return data ? ((const size_t *)(data - BG_BUF_HEADER))[1] : 0;
}

static void bg_buf_set_written(char *data, size_t n) {
    ((size_t *)(data - BG_BUF_HEADER))[1] = n;
}

char *bg_buf_alloc(size_t n) {
    char *base = NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (n >= BG_BUF_BIG) {
        void *p = NULL;
        if (posix_memalign(&p, BG_BUF_BIG, n + BG_BUF_HEADER) != 0)
            return NULL;
        madvise(p, n + BG_BUF_HEADER, MADV_HUGEPAGE);
        base = (char *)p;
    } else
#endif
    base = (char *)malloc(n + BG_BUF_HEADER);
    if (base == NULL)
        return NULL;
    ((size_t *)base)[0] = n;
    ((size_t *)base)[1] = n;
    return base + BG_BUF_HEADER;
}

void bg_buf_free(char *data) {
    if (data)
        free(data - BG_BUF_HEADER);
}

char *bg_buf_obtain(size_t n) {
    char *data = bg_kept;
    /* Only for a batch of about the same size: a small one would hold the
       whole buffer (where bg_buf_trim cannot give pages back). */
    if (data != NULL && bg_buf_capacity(data) >= n && n >= bg_buf_capacity(data) / 2) {
        bg_kept = NULL;
        bg_buf_set_written(data, bg_buf_capacity(data));  /* until trimmed */
        return data;
    }
    return bg_buf_alloc(n);
}

void bg_buf_release(void *ptr) {
    char *data = (char *)ptr;
    size_t cap = bg_buf_capacity(data);
    if (data == NULL)
        return;
    if (cap >= BG_BUF_BIG && bg_buf_written(data) <= BG_BUF_KEEP_MAX && cap > bg_buf_capacity(bg_kept)) {
        bg_buf_free(bg_kept);
        bg_kept = data;
        return;
    }
    bg_buf_free(data);
}

void bg_buf_forget(void) {
    bg_buf_free(bg_kept);
    bg_kept = NULL;
}

void bg_buf_trim(char *data, size_t used) {
#if defined(__linux__) && defined(MADV_DONTNEED)
    /* A kept buffer may have been written further by an earlier batch. */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t cap = bg_buf_capacity(data);
    size_t start = ((size_t)data + used + page - 1) & ~(page - 1);
    size_t end = ((size_t)data + cap) & ~(page - 1);
    if (cap >= BG_BUF_BIG && (end <= start || madvise((void *)start, end - start, MADV_DONTNEED) == 0))
        bg_buf_set_written(data, start - (size_t)data < cap ? start - (size_t)data : cap);
#endif
    (void)data;
    (void)used;
}
