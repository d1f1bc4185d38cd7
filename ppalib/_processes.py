"""Starting worker processes (ground floor: imported by the executors of ``experiments`` and ``dask_executor``)."""
from __future__ import annotations

import sys
import contextlib


@contextlib.contextmanager
def spawning_without_main():
    """Start processes that do not re-run the ``__main__`` script or module.

    A process started by "spawn" first re-runs the parent's main script (as ``__mp_main__``) so that objects
    defined there can be unpickled.  Our workers only need ppalib, and a script that calls ``run`` without an
    ``if __name__ == "__main__":`` guard (the README's example saved as ``demo.py``) would have every worker
    start the whole run again.  Hiding the main module's file and spec while the processes start makes them
    skip that step; a notebook or an interactive prompt has neither, so nothing changes there.
    """
    main = sys.modules.get("__main__")
    saved = {k: main.__dict__[k] for k in ("__file__", "__spec__") if main is not None and k in main.__dict__}
    try:
        if main is not None:
            main.__dict__.pop("__file__", None)
            if "__spec__" in saved:
                main.__spec__ = None
        yield
    finally:
        if main is not None:
            main.__dict__.update(saved)
