"""``python -m ppalib reproduce``: run the notebooks headlessly with papermill.

Each source notebook in ``notebooks/`` is executed at the chosen preset into the output folder (never over the
source); the notebooks themselves write their figures and tables (the committed ``figures/`` only at the
committed preset, ``quick``; other presets under ``output/<preset>/``).  Every ``-p`` parameter is checked
against every selected notebook's declared parameters before the first notebook starts.  A failing notebook
stops the command with an error naming the notebook and the cell.
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


def check_parameters(sources: list[Path], preset: str, parameters: dict) -> dict[str, dict]:
    """Each notebook's share of ``parameters``, validated before anything runs (names, types, ranges, the seed of
    stored games).  A parameter no selected notebook declares is refused, naming it and the known ones; one
    that only some declare goes to those only (and the command says so)."""
    from .papers import declared_parameters, paper_module, prepare, unknown_parameter_message
    declared = {source.stem: declared_parameters(paper_module(source.stem)) for source in sources}
    for name in parameters:
        if not any(name in names for names in declared.values()):
            known = sorted({n for names in declared.values() for n in names})
            where = "any selected notebook" if len(sources) > 1 else f"notebook {sources[0].stem}"
            raise ValueError("-p " + unknown_parameter_message(name, known, where))
    shares = {}
    for source in sources:
        share = {name: value for name, value in parameters.items() if name in declared[source.stem]}
        skipped = sorted(set(parameters) - set(share))
        if skipped:
            print(f"[reproduce] {source.stem} has no parameter {', '.join(skipped)}: not passed to it", flush=True)
        try:
            prepare(paper_module(source.stem), preset, **share)
        except (ValueError, TypeError) as error:
            raise type(error)(f"{source.stem}: {error}") from None
        shares[source.stem] = share
    return shares


def reproduce(preset: str = "quick", only: list[str] | None = None, parameters: dict | None = None,
              output_dir=None, kernel_name: str = "python3") -> list[Path]:
    """Execute the notebooks; return the executed copies.  Raises RuntimeError naming a failing notebook/cell.

    Every parameter is validated for every selected notebook before the first one starts; a preset other than
    the committed one (``quick``) writes its results and figures under ``output/<preset>/``, never over the
    committed ones (see ``ppalib.papers``)."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    if preset not in PRESETS:
        raise ValueError(f"preset={preset!r} is unknown; known presets: {', '.join(PRESETS)}")
    parameters = dict(parameters or {})
    if "preset" in parameters:
        raise ValueError("give the preset with --preset, not -p preset=...")
    from .store import check_writable
    output_dir = Path(output_dir) if output_dir else paths.EXECUTED_NOTEBOOKS
    sources = notebooks(only)
    shares = check_parameters(sources, preset, parameters)
    try:
        check_writable(output_dir)
    except ValueError as error:
        raise ValueError(str(error).replace("results_dir=", "--output ")) from None
    executed = []
    for source in sources:
        target = output_dir / source.name
        start = time.perf_counter()
        print(f"[reproduce] {source.name} at preset {preset!r} -> {target}", flush=True)
        try:
            papermill.execute_notebook(str(source), str(target), parameters={"preset": preset, **shares[source.stem]},
                                       kernel_name=kernel_name, cwd=str(paths.NOTEBOOKS), progress_bar=False)
        except PapermillExecutionError as error:
            raise RuntimeError(f"notebook {source.name} failed in cell {error.cell_index} "
                               f"(execution count {error.exec_count}): {error.ename}: {error.evalue}. "
                               f"The executed copy with the traceback is {target}") from None
        except OSError as error:  # writing the executed copy (a full disk, say)
            raise RuntimeError(f"notebook {source.name}: cannot write {target}: {error.strerror or error}. "
                               f"Stored games are safe; free some space and rerun the same command.") from None
        print(f"[reproduce] {source.name} done in {time.perf_counter() - start:.0f} s", flush=True)
        executed.append(target)
    return executed
