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
/* Released buffers are kept while at most this many bytes of them in all may
   have been written: that is the memory they hold on to, whatever their
   capacity. */
#define BG_BUF_KEEP_MAX ((size_t)1 << 27)
/* Buffers kept at most.  A caller that alternates batches of a few sizes
   (a search's plies, a benchmark's subsets) finds a buffer of each size
   mapped already, rather than one size evicting another's: a fresh buffer
   costs a fault and the kernel's zeroing of each page it writes, and on a
   virtual machine that hands freed memory back to its host, the host's own
   faults too. */
#define BG_BUF_KEPT 4

/* The kept buffers, the least recently released first. */
static char *bg_kept[BG_BUF_KEPT];
static int bg_nkept = 0;

size_t bg_buf_capacity(const char *data) {
    return data ? ((const size_t *)(data - BG_BUF_HEADER))[0] : 0;
}

static size_t bg_buf_written(const char *data) {
    return data ? ((const size_t *)(data - BG_BUF_HEADER))[1] : 0;
}

static void bg_buf_set_written(char *data, size_t n) {
    ((size_t *)(data - BG_BUF_HEADER))[1] = n;
}

/* How many bytes from the start may be mapped: the written mark of the last
   bg_buf_trim, kept while a batch that obtained the buffer writes it (a
   batch writes below the rows it hands over, and a buffer released without
   a trim counts as mapped throughout). */
static size_t bg_buf_mapped(const char *data) {
    return ((const size_t *)(data - BG_BUF_HEADER))[2];
}

static void bg_buf_set_mapped(char *data, size_t n) {
    ((size_t *)(data - BG_BUF_HEADER))[2] = n;
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
    ((size_t *)base)[2] = n;
    return base + BG_BUF_HEADER;
}

void bg_buf_free(char *data) {
    if (data)
        free(data - BG_BUF_HEADER);
}

/* Take kept buffer i out of the list. */
static char *bg_unkeep(int i) {
    char *data = bg_kept[i];
    bg_nkept--;
    memmove(&bg_kept[i], &bg_kept[i + 1], (size_t)(bg_nkept - i) * sizeof(char *));
    return data;
}

char *bg_buf_obtain(size_t n) {
    int i, best = -1;
    size_t cap;
    /* The smallest that fits, and only for a batch of about its size: a
       small one would hold the whole buffer (where bg_buf_trim cannot give
       pages back). */
    for (i = 0; i < bg_nkept; i++) {
        cap = bg_buf_capacity(bg_kept[i]);
        if (cap >= n && n >= cap / 2 && (best < 0 || cap < bg_buf_capacity(bg_kept[best])))
            best = i;
    }
    if (best >= 0) {
        char *data = bg_unkeep(best);
        bg_buf_set_written(data, bg_buf_capacity(data));  /* until trimmed */
        return data;
    }
    return bg_buf_alloc(n);
}

void bg_buf_release(void *ptr) {
    char *data = (char *)ptr;
    size_t held = 0;
    int i;
    if (data == NULL)
        return;
    if (bg_buf_capacity(data) < BG_BUF_BIG || bg_buf_written(data) > BG_BUF_KEEP_MAX) {
        bg_buf_free(data);
        return;
    }
    if (bg_buf_written(data) == bg_buf_capacity(data))  /* obtained and never trimmed */
        bg_buf_set_mapped(data, bg_buf_capacity(data));
    if (bg_nkept == BG_BUF_KEPT)
        bg_buf_free(bg_unkeep(0));
    bg_kept[bg_nkept++] = data;
    for (i = 0; i < bg_nkept; i++)
        held += bg_buf_written(bg_kept[i]);
    while (held > BG_BUF_KEEP_MAX) {  /* the one just kept fits alone */
        held -= bg_buf_written(bg_kept[0]);
        bg_buf_free(bg_unkeep(0));
    }
}

int bg_buf_kept(size_t *capacities, int max) {
    int i;
    for (i = 0; i < bg_nkept && i < max; i++)
        capacities[i] = bg_buf_capacity(bg_kept[i]);
    return bg_nkept;
}

void bg_buf_forget(void) {
    while (bg_nkept)
        bg_buf_free(bg_unkeep(bg_nkept - 1));
}

void bg_buf_trim(char *data, size_t used) {
#if defined(__linux__) && defined(MADV_DONTNEED)
    /* Pages past the rows are mapped only as far as an earlier batch wrote
       them: when none is (a batch of the size of the last), no system call
       is made, which on a virtual machine costs microseconds, more when it
       makes the kernel flush the other CPUs' TLBs. */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t cap = bg_buf_capacity(data);
    size_t mapped = bg_buf_mapped(data) < cap ? bg_buf_mapped(data) : cap;
    size_t start = ((size_t)data + used + page - 1) & ~(page - 1);
    size_t end = ((size_t)data + mapped) & ~(page - 1);
    size_t kept;
    if (cap < BG_BUF_BIG)
        return;
    kept = start - (size_t)data < cap ? start - (size_t)data : cap;
    if (end <= start || madvise((void *)start, end - start, MADV_DONTNEED) == 0) {
        bg_buf_set_written(data, kept);
        bg_buf_set_mapped(data, kept);
    }
#endif
    (void)data;
    (void)used;
}
