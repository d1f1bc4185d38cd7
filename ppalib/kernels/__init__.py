"""Numba kernels: every compiled function that calls a game, and game-free compiled helpers (the feature matcher)."""
