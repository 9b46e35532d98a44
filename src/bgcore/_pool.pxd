# cython: language_level=3
"""A pool of native threads kept between jobs (see _pool.pyx).

A job takes threads with the GIL held (``bg_pool_take``), may wake them
ahead of their tasks (``bg_pool_prime``), hands each a task without the GIL
(``bg_pool_submit``), waits for them (``bg_pool_wait``) and gives them back
with the GIL held (``bg_pool_give``).
"""

ctypedef void (*bg_task)(void *arg) noexcept nogil

cdef struct bg_pool_thread

# An idle kept thread, or a new one; NULL when none can be had.  GIL held.
cdef bg_pool_thread *bg_pool_take() noexcept
# Keep an idle thread for a later job, or end it (a primed thread never
# handed a task is stopped first).  GIL held.
cdef void bg_pool_give(bg_pool_thread *t) noexcept
# Wake t ahead of its task (a thread that lingers after its last task just
# goes on spinning), which a bg_pool_submit soon after then hands over
# without waking it (t spins for a while, then sleeps again).  False
# when t's thread does not exist in this process or has a task already.
cdef bint bg_pool_prime(bg_pool_thread *t) noexcept nogil
# Run task(arg) on t; False (nothing runs) when t's thread does not exist in
# this process (it was taken before a fork).  No GIL needed.
cdef bint bg_pool_submit(bg_pool_thread *t, bg_task task, void *arg) noexcept nogil
# Wait until the task submitted to t has returned (at once when none was;
# a primed thread never handed a task stops spinning).
cdef void bg_pool_wait(bg_pool_thread *t) noexcept nogil
# End every idle thread.  GIL held.
cdef void bg_pool_forget() noexcept
