"""Per-game specialisation of the kernel package, so that numba's on-disk cache hits and never serves stale code.

Two facts about numba 0.68 shape this module (both measured on this project's machine):

1. ``cache=True`` only checks the cached function's *own* source file, so a change in a called function in
   another module can leave stale machine code.  The whole numba cache directory is therefore keyed by a hash of
   every ppalib source file that numba compiles (``SOURCE_HASH``): any edit gives a fresh directory.
2. A kernel that receives game functions as arguments, or a closure over them, never hits the on-disk cache.
   So the kernels are *templates* written against the game contract (``ppalib.games.contract``), imported on a
   line marked ``# <game-import>``.  ``specialised(game_module)`` writes one copy of the template modules of
   ``ppalib/kernels`` per game module into the cache directory, as a package ``ppalib_kernels__<game_module>``,
   with that line naming the game and the templates' imports of each other pointing inside the same package;
   game-free modules (``tree``, ``selection``, ``learning``...) are imported as they are.  Each copy is an
   ordinary file with its own cache entries: the game's functions are inlined and the compiled kernels load
   from disk in a fresh process.  ``check_specialised`` refuses a copy that could bind another game's functions.

The cache root is ``$PPALIB_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/ppalib`` (``~/.cache/ppalib``).

Numba files a module's entries under a hash of the module's absolute folder, so a second checkout of the same code
(a fresh clone, a git worktree, a cluster worker's copy) compiled every game function again.  ppalib's own compiled
modules are therefore filed by their path *inside the package* (``PackageRelativeCacheLocator``): ``CACHE_DIR`` is
already keyed by the hash of every such file, and numba still checks each file's content hash (its source stamp)
before it loads an entry.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import numba
from numba.core import sigutils
from numba.core.caching import CacheImpl, UserProvidedCacheLocator
from numba.core.compiler_lock import global_compiler_lock
from numba.core.dispatcher import Dispatcher

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; each process compiles what it needs
    fcntl = None

PACKAGE_DIR = Path(__file__).resolve().parent
KERNELS_DIR = PACKAGE_DIR / "kernels"
# Files whose code numba compiles: every kernel depends on these, so their hash keys the cache.
_JIT_SOURCES = sorted([PACKAGE_DIR / "_rng.py", PACKAGE_DIR / "_noalloc.py", *(PACKAGE_DIR / "games").glob("*.py"),
                       *(PACKAGE_DIR / "features").glob("*.py"), *KERNELS_DIR.glob("*.py")])

# The sources are read once, here: kernels are generated from these texts, never from the files later, so a
# long run keeps compiling the code its hash names even if the files are edited meanwhile.
_SOURCE_TEXT = {path: path.read_text() for path in _JIT_SOURCES}


def _source_hash() -> str:
    digest = hashlib.sha256()
    for path in _JIT_SOURCES:
        digest.update(path.relative_to(PACKAGE_DIR).as_posix().encode())
        digest.update(_SOURCE_TEXT[path].encode())
    digest.update(numba.__version__.encode())
    return digest.hexdigest()[:16]


SOURCE_HASH = _source_hash()


def cache_root() -> Path:
    base = os.environ.get("PPALIB_CACHE_DIR")
    if not base:
        base = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "ppalib")
    return Path(base)


CACHE_DIR = cache_root() / f"numba-{SOURCE_HASH}"


_JIT_SOURCE_FILES = frozenset(str(path) for path in _JIT_SOURCES)
# numba's own locators, in its order, after ours: read from numba rather than listed here, so that a numba with
# another list keeps all of its own.
_NUMBA_LOCATORS = tuple(cls.__name__ for cls in CacheImpl._locator_classes)


class PackageRelativeCacheLocator(UserProvidedCacheLocator):
    """Files the entries of a ppalib module numba compiles under ``CACHE_DIR/package/<its folder in ppalib>``, so
    that every checkout of the same sources shares them (module docstring).  Any other file: ``None``, and numba
    asks its own locators.  The source stamp stays numba's (a hash of the file's content)."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        inside = Path(py_file).resolve().parent.relative_to(PACKAGE_DIR)
        self._cache_path = os.path.join(numba.config.CACHE_DIR, "package", "ppalib", *inside.parts)

    @classmethod
    def from_function(cls, py_func, py_file):
        if str(Path(py_file).resolve()) not in _JIT_SOURCE_FILES:
            return None
        return super().from_function(py_func, py_file)


def _compile_once_across_processes(original):
    """``Dispatcher.compile`` that compiles a cached function's new signature under a lock on a file beside the
    function's cache index (``<index>.lock``), so that processes sharing a cold cache (pytest-xdist's workers,
    ``until-decided``'s or Dask's workers) compile it once: the others wait, then load it from the cache, which
    ``compile`` reads first.  Numba compiles callees while typing a caller, each under its own lock; the call graph has
    no cycles, so the locks are always taken in the same order.  Without ``fcntl`` (Windows), ``compile`` as it is."""
    def compile(self, sig):
        cache_file = getattr(self._cache, "_cache_file", None)  # none where caching is off (a NullCache)
        index_path = getattr(cache_file, "_index_path", None)
        if fcntl is None or index_path is None or not self._can_compile or \
                tuple(sigutils.normalize_signature(sig)[0]) in self.overloads:
            return original(self, sig)
        # numba's own lock first, as ``compile`` takes it: within a process the file locks are then only ever
        # taken by the one thread that compiles, in call order.
        with global_compiler_lock, open(f"{index_path}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or if the process dies
            return original(self, sig)
    compile.__wrapped__ = original
    return compile


def configure_numba_cache() -> None:
    """Point numba's cache at ``CACHE_DIR``, ppalib's modules filed by ``PackageRelativeCacheLocator`` (before any
    locator named in ``NUMBA_CACHE_LOCATOR_CLASSES``, else numba's), and compile each cached function's signature
    once across processes (``_compile_once_across_processes``); must run before any ``@njit(cache=True)`` in
    ppalib is defined."""
    if not hasattr(Dispatcher.compile, "__wrapped__"):
        Dispatcher.compile = _compile_once_across_processes(Dispatcher.compile)
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    numba.config.CACHE_DIR = str(CACHE_DIR)
    ours = f"{__name__}.{PackageRelativeCacheLocator.__name__}"
    theirs = [name.strip() for name in (numba.config.CACHE_LOCATOR_CLASSES or "").split(",") if name.strip()]
    if ours not in theirs:
        numba.config.CACHE_LOCATOR_CLASSES = ",".join([ours, *(theirs or _NUMBA_LOCATORS)])


GAME_IMPORT = re.compile(r"^from ppalib\.games import (\w+) as game\s+# <game-import>$", re.M)
_LOADED: dict[str, ModuleType] = {}


def templates() -> list[str]:
    """Names of the kernel modules that are templates (they import the game contract)."""
    return sorted(path.stem for path, text in _SOURCE_TEXT.items()
                  if path.parent == KERNELS_DIR and GAME_IMPORT.search(text))


def package_name(game_module: str) -> str:
    return f"ppalib_kernels__{game_module}"


def specialise_source(source: str, game_module: str, names: list[str]) -> str:
    """``source`` of a template with its game import naming ``game_module`` and its imports of the templates
    ``names`` pointing into that game's package."""
    package = package_name(game_module)
    text = GAME_IMPORT.sub(f"from ppalib.games import {game_module} as game  # <game-import>", source)
    for name in names:
        text = re.sub(rf"\bfrom ppalib\.kernels\.{name} import\b", f"from {package}.{name} import", text)
        text = re.sub(rf"^from ppalib\.kernels import {name}$", f"from {package} import {name}", text, flags=re.M)
    return text


def check_specialised(text: str, game_module: str, names: list[str]) -> None:
    """Refuse a specialised source that could bind another game's functions: it must import exactly this game as
    ``game`` and no template outside its own package."""
    games = GAME_IMPORT.findall(text)
    if games != [game_module]:
        raise RuntimeError(f"specialised kernel for {game_module} imports the game(s) {games}")
    for name in names:
        if re.search(rf"ppalib\.kernels(\.{name}\b| import [\w, ]*\b{name}\b)", text):
            raise RuntimeError(f"specialised kernel for {game_module} still imports the unspecialised template "
                               f"{name!r}, which would bind the contract, not {game_module}")


def _write(target: Path, text: str) -> None:
    if target.exists() and target.read_text() == text:
        return  # unchanged: keep the timestamp numba's cache index checks
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    with os.fdopen(fd, "w") as handle:
        handle.write(text)
    os.replace(tmp, target)  # atomic: parallel workers never import a half-written file


def specialised(game_module: str) -> ModuleType:
    """The kernel package specialised to ``ppalib.games.<game_module>``: its attributes are the template modules
    (``search``, ``playout``, ``nrpa``, ``perft``...), each compiled against that game."""
    if game_module in _LOADED:
        return _LOADED[game_module]
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", game_module) or \
            not (PACKAGE_DIR / "games" / f"{game_module}.py").exists():
        raise ValueError(f"game_module={game_module!r} is not a module of ppalib.games")
    names = templates()
    package = package_name(game_module)
    directory = CACHE_DIR / "specialised" / package
    header = f"# Generated by ppalib._specialise from ppalib/kernels/{{}}.py for ppalib.games.{game_module}; do not edit.\n"
    for name in names:
        text = specialise_source(_SOURCE_TEXT[KERNELS_DIR / f"{name}.py"], game_module, names)
        check_specialised(text, game_module, names)
        _write(directory / f"{name}.py", header.format(name) + text)
    _write(directory / "__init__.py", f'"""ppalib.kernels specialised to ppalib.games.{game_module}."""\n')
    spec = importlib.util.spec_from_file_location(package, directory / "__init__.py",
                                                  submodule_search_locations=[str(directory)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[package] = module
    spec.loader.exec_module(module)
    for name in names:
        setattr(module, name, importlib.import_module(f"{package}.{name}"))
    _LOADED[game_module] = module
    return module
