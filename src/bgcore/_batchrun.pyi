"""Batches run in C, for bgcore._batch: the whole API is C-level (_batchrun.pxd)."""
