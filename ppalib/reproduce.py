"""``python -m ppalib reproduce``: run the notebooks headlessly with papermill.

Each source notebook in ``notebooks/`` is executed at the chosen preset into the output folder (never over the
source); the notebooks themselves write ``figures/`` and their tables.  A failing notebook stops the command
with an error naming the notebook and the cell.
"""
from __future__ import annotations

import time
from pathlib import Path

from . import paths

PRESETS = ("smoke", "quick", "paper")


def notebooks(only: list[str] | None = None) -> list[Path]:
    """The source notebooks, sorted; ``only`` selects by name (with or without ``.ipynb``)."""
    found = sorted(paths.NOTEBOOKS.glob("[0-9]*.ipynb"))
    if only:
        wanted = {name.removesuffix(".ipynb") for name in only}
        unknown = wanted - {p.stem for p in found}
        if unknown:
            raise ValueError(f"--only {sorted(unknown)} names no notebook; known: {', '.join(p.stem for p in found)}")
        found = [p for p in found if p.stem in wanted]
    return found


def reproduce(preset: str = "quick", only: list[str] | None = None, parameters: dict | None = None,
              output_dir=None, kernel_name: str = "python3") -> list[Path]:
    """Execute the notebooks; return the executed copies.  Raises RuntimeError naming a failing notebook/cell."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    if preset not in PRESETS:
        raise ValueError(f"preset={preset!r} is unknown; known presets: {', '.join(PRESETS)}")
    parameters = dict(parameters or {})
    if "preset" in parameters:
        raise ValueError("give the preset with --preset, not -p preset=...")
    from .store import check_writable
    output_dir = Path(output_dir) if output_dir else paths.EXECUTED_NOTEBOOKS
    try:
        check_writable(output_dir)
    except ValueError as error:
        raise ValueError(str(error).replace("results_dir=", "--output ")) from None
    executed = []
    for source in notebooks(only):
        target = output_dir / source.name
        start = time.perf_counter()
        print(f"[reproduce] {source.name} at preset {preset!r} -> {target}", flush=True)
        try:
            papermill.execute_notebook(str(source), str(target), parameters={"preset": preset, **parameters},
                                       kernel_name=kernel_name, cwd=str(paths.NOTEBOOKS), progress_bar=False)
        except PapermillExecutionError as error:
            raise RuntimeError(f"notebook {source.name} failed in cell {error.cell_index} "
                               f"(execution count {error.exec_count}): {error.ename}: {error.evalue}. "
                               f"The executed copy with the traceback is {target}") from None
        print(f"[reproduce] {source.name} done in {time.perf_counter() - start:.0f} s", flush=True)
        executed.append(target)
    return executed
