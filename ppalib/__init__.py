"""ppalib: online learning in Monte Carlo Tree Search, reproduced (PPA, PPAF, MAST, adaptive RAVE).

Numba-compiled games and agents, an experiment runner with a results store that never loses a game, and the
reports behind the notebooks in ``notebooks/``.
"""
from ._specialise import configure_numba_cache as _configure_numba_cache

_configure_numba_cache()  # before any jitted module is imported

from ._specialise import SOURCE_HASH  # noqa: E402

__version__ = "0.1.0"
#: Recorded with every game: the package version and a hash of the compiled sources.
CODE_VERSION = f"{__version__}+{SOURCE_HASH}"

from ._rng import make_rng  # noqa: E402  (public: every seeded call takes its state)

__all__ = ["CODE_VERSION", "SOURCE_HASH", "make_rng"]
