"""The import graph of ppalib: no cycle, and no room importing a room above it (ppalib/DESIGN: arrows point one
way).  Every ``import`` statement counts, including those inside functions."""
import ast
from pathlib import Path

import ppalib

PACKAGE = Path(ppalib.__file__).parent
# Rooms from the ground up; a module may import its own room and the rooms below.
LAYERS = [
    {"_noalloc", "_rng", "_specialise", "_processes", "paths"},
    {"games"},
    {"features"},
    {"kernels"},
    {"agents", "store"},
    {"training", "experiments", "dask_executor", "until_decided"},
    {"report", "engine_check"},
    {"papers"},
    # the front ends: the CLI, reproduce, the explorer (which reads agents as the CLI's --agent) and the Jupyter
    # server's save hook that keeps source notebooks clean
    {"bench", "preset_costs", "reproduce", "cli_values", "__main__", "explore", "notebook_hygiene", "site"},
]
LAYER = {room: i for i, rooms in enumerate(LAYERS) for room in rooms}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """The ppalib modules ``path`` imports (relative imports resolved; ``from x import y`` counts y when it is a
    module)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("ppalib")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if not module.startswith("ppalib"):
                continue
            found.add(module)
            for alias in node.names:
                candidate = f"{module}.{alias.name}"
                if (PACKAGE.parent / (candidate.replace(".", "/") + ".py")).exists() or \
                        (PACKAGE.parent / candidate.replace(".", "/") / "__init__.py").exists():
                    found.add(candidate)
    found.discard(name)
    return found


def _graph() -> dict[str, set[str]]:
    return {_module_name(p): _imports(p) for p in PACKAGE.rglob("*.py")}


def _room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "ppalib"


def test_no_import_cycle():
    graph = _graph()
    # A package importing its own submodules (re-exports) is not a cycle between rooms.
    state, stack = {}, []

    def visit(module):
        state[module] = "open"
        stack.append(module)
        for target in sorted(graph.get(module, ())):
            if target.startswith(module + "."):
                continue
            if state.get(target) == "open":
                cycle = stack[stack.index(target):] + [target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        stack.pop()
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module)


def test_no_room_imports_a_room_above_it():
    wrong = []
    for module, targets in _graph().items():
        room = _room(module)
        if room == "ppalib":
            continue
        for target in targets:
            target_room = _room(target)
            if target_room != "ppalib" and LAYER[target_room] > LAYER[room]:
                wrong.append(f"{module} imports {target}")
    assert not wrong, wrong


def test_games_import_nothing_of_ppalib_but_the_ground_floor():
    for module, targets in _graph().items():
        if _room(module) == "games":
            assert {_room(t) for t in targets} <= {"games", "_noalloc", "_rng"}, (module, targets)


def test_every_room_is_known_to_this_test():
    rooms = {_room(m) for m in _graph()} - {"ppalib"}
    assert rooms <= set(LAYER), rooms - set(LAYER)
