/* Result buffers for batches of generated boards.

   A buffer is a 64-byte header (its capacity in bytes, how many of them
   count as written for the memory kept buffers hold, and how far its pages
   may be mapped) followed by the data;
   callers hold the data pointer.  Large buffers are 2 MiB-aligned and advised
   to use huge pages on Linux, which spares a page fault per 4 KiB written.

   A few released large buffers are kept (bg_buf_release: up to 4, the least
   recently released going first, and at most 128 MiB written in all) and
   handed to the next batch that asks for no more than one holds and at
   least half of it (bg_buf_obtain), so the pages that batch writes are
   mapped already: a fresh mapping costs a page fault and the kernel zeroing
   each page before it is written.  bg_buf_obtain, bg_buf_release and
   bg_buf_forget must be called with the GIL held, which guards the kept
   buffers; the others may run on any thread. */
#ifndef BG_ROWBUF_H
#define BG_ROWBUF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of data a buffer holds (0 for NULL). */
size_t bg_buf_capacity(const char *data);
/* A new buffer of n bytes, or NULL when out of memory. */
char *bg_buf_alloc(size_t n);
/* Free a buffer (NULL is ignored). */
void bg_buf_free(char *data);
/* The smallest kept buffer that holds n bytes and not more than twice that,
   else a new one.  GIL held. */
char *bg_buf_obtain(size_t n);
/* Keep a large buffer for a later bg_buf_obtain (freeing the buffers kept
   longest when there are too many), or free it.  Its signature fits
   cython.view.array's callback_free_data.  GIL held. */
void bg_buf_release(void *data);
/* How many buffers are kept; the capacities of the first `max` go to
   `capacities`, the least recently released first.  GIL held. */
int bg_buf_kept(size_t *capacities, int max);
/* Free the kept buffers.  GIL held. */
void bg_buf_forget(void);
/* Give back the whole pages after the first `used` bytes of a large buffer,
   so that what a caller holds is what it uses.  The writer must not have
   written past `used` since the buffer was obtained. */
void bg_buf_trim(char *data, size_t used);

#ifdef __cplusplus
}
#endif

#endif /* BG_ROWBUF_H */
