"""The generator's C-level API lives in movegen.pxd; Python sees two constants."""

API_VERSION: int
MAX_RESULTS: int
