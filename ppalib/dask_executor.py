"""Run an experiment's batches on Dask distributed: a LocalCluster on this machine, or an existing cluster.

Each batch is one task; the client yields a batch's records as soon as its task completes, and the runner
writes them at once, so a lost client or scheduler loses at most the games in flight.  When a worker dies,
the scheduler reruns its tasks elsewhere; the client still receives exactly one result per task, and every
game keeps its own seed, so the stored games are identical to a local or serial run's.

Workers must be able to import ppalib (same environment).  They load the numba kernels from the disk cache
(``PPALIB_CACHE_DIR`` or ``~/.cache/ppalib``); on a cluster, point ``PPALIB_CACHE_DIR`` at a shared folder or let
each machine compile once.
"""
from __future__ import annotations

from ._processes import spawning_without_main

import os
import re


def _check_address(address) -> str:
    if not isinstance(address, str) or not re.fullmatch(r"(tcp|tls|inproc|ucx|ws|wss)://[^\s/]+(:\d+)?", address):
        raise ValueError(f"scheduler_address={address!r} must look like 'tcp://host:8786'")
    return address


class DaskExecutor:
    """Batches as Dask tasks.  ``scheduler_address=None`` starts a LocalCluster bound to 127.0.0.1 with
    ``workers`` single-threaded worker processes (default: every core) for the duration of one run."""

    def __init__(self, scheduler_address: str | None = None, workers: int | None = None,
                 connect_timeout: float = 10.0):
        self.scheduler_address = None if scheduler_address is None else _check_address(scheduler_address)
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
            raise ValueError(f"workers={workers!r} is out of range: allowed 1..4096")
        self.workers = workers or os.cpu_count() or 1
        self.connect_timeout = connect_timeout

    def _client(self):
        from distributed import Client, LocalCluster
        if self.scheduler_address is None:
            with spawning_without_main():  # the worker processes start now: they need not re-run a script
                cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
            return Client(cluster), cluster
        try:
            client = Client(self.scheduler_address, timeout=f"{self.connect_timeout}s")
        except (OSError, TimeoutError) as error:
            raise ValueError(f"scheduler_address={self.scheduler_address!r} is unreachable: {error}") from None
        return client, None

    def run(self, fn, batches, *args):
        from distributed import as_completed
        client, cluster = self._client()
        futures = []
        try:
            futures = [client.submit(fn, batch, *args, pure=False) for batch in batches]
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                if not future.done():
                    future.cancel()
            client.close()
            if cluster is not None:
                cluster.close()
