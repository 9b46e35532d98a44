# cython: language_level=3
"""A pool of native threads kept between jobs (see _pool.pyx).

A job takes threads with the GIL held (``bg_pool_take``), hands each a task
without the GIL (``bg_pool_submit``), waits for them (``bg_pool_wait``) and
gives them back with the GIL held (``bg_pool_give``).
"""

ctypedef void (*bg_task)(void *arg) noexcept nogil

cdef struct bg_pool_thread

# An idle kept thread, or a new one; NULL when none can be had.  GIL held.
cdef bg_pool_thread *bg_pool_take() noexcept
# Keep an idle thread for a later job, or end it.  GIL held.
cdef void bg_pool_give(bg_pool_thread *t) noexcept
# Run task(arg) on t; False (nothing runs) when t's thread does not exist in
# this process (it was taken before a fork).  No GIL needed.
cdef bint bg_pool_submit(bg_pool_thread *t, bg_task task, void *arg) noexcept nogil
# Wait until the task submitted to t has returned (at once when none was).
cdef void bg_pool_wait(bg_pool_thread *t) noexcept nogil
# End every idle thread.  GIL held.
cdef void bg_pool_forget() noexcept
