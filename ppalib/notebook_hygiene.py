"""Source notebooks stay clean when saved from JupyterLab: a Jupyter server pre-save hook.

The tracked notebooks (``notebooks/*.ipynb``) carry no outputs (the developers' guide; ``reproduce`` writes the
executed copies elsewhere).  Opening one in JupyterLab and running it would otherwise write its outputs, execution
counts and the kernel's metadata into the tracked file at the next (auto)save.  ``jupyter_server_config.py`` at
the repository's root registers ``clean_for_saving`` as the contents manager's pre-save hook, and the README's
command starts JupyterLab with it (``jupyter lab --config=jupyter_server_config.py``): a notebook saved into a
``notebooks`` folder is written without outputs, with its notebook-level metadata as on disk (the kernel's
``language_info`` does not creep in) and without the cell metadata JupyterLab adds on running a cell.  What a user
types into the cells is saved as typed; the outputs stay on screen, in the browser.

Why a save hook rather than paired text notebooks (jupytext): the notebooks stay the ones papermill, ``reproduce``
and the tests read, and nothing new is needed to open them.
"""
from __future__ import annotations

import json
import os

#: Folders whose notebooks are sources: saved without outputs.
SOURCE_FOLDER = "notebooks"
#: Cell metadata that JupyterLab and nbclient write on running a cell (timings, a collapsed or scrolled output).
RUN_CELL_METADATA = ("execution", "collapsed", "scrolled")


def is_source_notebook(os_path: str) -> bool:
    """Whether the file at ``os_path`` is a source notebook: an ``.ipynb`` directly in a ``notebooks`` folder."""
    parent, name = os.path.split(os.path.abspath(os_path))
    return name.endswith(".ipynb") and os.path.basename(parent) == SOURCE_FOLDER


def clean_notebook(content: dict, metadata_on_disk: dict | None = None) -> dict:
    """``content`` (a notebook as a dict, changed in place and returned) without outputs, execution counts and the
    cell metadata of a run; its notebook metadata replaced by ``metadata_on_disk`` when given."""
    for cell in content.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        metadata = cell.get("metadata", {})
        for key in RUN_CELL_METADATA:
            metadata.pop(key, None)
    if metadata_on_disk is not None:
        content["metadata"] = metadata_on_disk
    return content


def clean_for_saving(model: dict, path: str, contents_manager, **_kwargs) -> None:
    """The pre-save hook (``ContentsManager.pre_save_hook``): a notebook saved as a source notebook is cleaned
    (``clean_notebook``), keeping the notebook metadata of the file it replaces."""
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    os_path = contents_manager._get_os_path(path)
    if not is_source_notebook(os_path):
        return
    on_disk = None
    if os.path.isfile(os_path):
        try:
            with open(os_path, encoding="utf-8") as handle:
                on_disk = json.load(handle).get("metadata")
        except (OSError, ValueError):
            on_disk = None  # an unreadable file is replaced as saved, cleaned of outputs all the same
    clean_notebook(model["content"], on_disk)
