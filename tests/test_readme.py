"""The README's examples, run exactly as printed: the Python example saved as a script (no main guard), in a
notebook cell and at an interactive prompt; the command-line examples in a shell."""
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _section(title: str) -> str:
    return README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


PYTHON_EXAMPLE = re.search(r"```python\n(.*?)```", _section("Using it"), re.S).group(1)
CLI_EXAMPLES = [line.split("  #")[0].strip() for line in
                re.search(r"Command line.*?```\n(.*?)```", _section("Using it"), re.S).group(1).splitlines()
                if line.startswith("python -m ppalib")]


def _env():
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def _printed_score(text: str) -> float:
    """The example ends by printing the agent's mean score: a number in [0, 1]."""
    numbers = re.findall(r"^(?:>>> |\.\.\. )*(0(?:\.\d+)?|1(?:\.0+)?)\s*$", text, re.M)
    assert numbers, text
    return float(numbers[-1])


def test_the_examples_are_found():
    assert "run(experiment)" in PYTHON_EXAMPLE and "if __name__" not in PYTHON_EXAMPLE
    assert len(CLI_EXAMPLES) >= 3


@pytest.fixture(scope="module")
def script_run(tmp_path_factory):
    """The example saved as a script and run with ``python demo.py``: it plays the games (on worker processes)."""
    folder = tmp_path_factory.mktemp("readme")
    script = folder / "demo.py"
    script.write_text(PYTHON_EXAMPLE + 'print("the script ran its last line")\n')
    out = subprocess.run([sys.executable, str(script)], cwd=folder, env=_env(), capture_output=True, text=True,
                         timeout=600)
    return folder, out


def test_python_example_as_a_script_without_main_guard(script_run):
    """Spawned worker processes must not re-run the script (which used to hang on the store lock, then fail)."""
    folder, out = script_run
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr and "waiting for" not in out.stderr
    assert out.stdout.count("the script ran its last line") == 1  # workers did not run it again
    assert 0 <= _printed_score(out.stdout) <= 1
    assert len(list((folder / "output" / "demo").glob("part-*.parquet"))) == 1


def test_python_example_in_a_notebook_cell(script_run, monkeypatch):
    """Run after the script in the same folder: the notebook reads the stored games back and prints the same."""
    from nbclient import NotebookClient
    folder, script = script_run
    parts = sorted((folder / "output" / "demo").glob("part-*.parquet"))
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(PYTHON_EXAMPLE)])
    monkeypatch.setenv("PYTHONPATH", _env()["PYTHONPATH"])  # the kernel inherits it
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(folder)}}).execute()
    outputs = notebook.cells[0].outputs
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream" and o.name == "stdout")
    assert _printed_score(text) == _printed_score(script.stdout)
    assert sorted((folder / "output" / "demo").glob("part-*.parquet")) == parts  # nothing replayed


def test_python_example_pasted_at_the_interactive_prompt(script_run):
    folder, script = script_run
    out = subprocess.run([sys.executable, "-i", "-q"], input=PYTHON_EXAMPLE, cwd=folder, env=_env(),
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0
    assert "Traceback" not in out.stderr and "Error" not in out.stderr, out.stderr
    assert _printed_score(out.stdout) == _printed_score(script.stdout)


@pytest.mark.parametrize("command", CLI_EXAMPLES)
def test_command_line_example(command, tmp_path):
    argv = shlex.split(command)
    out = subprocess.run([sys.executable, *argv[1:]], cwd=tmp_path, env=_env(), capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip()
