"""The two commands, the two dependency lists, and CI agree with each other."""
import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _pyproject_pins():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = project["dependencies"] + [pin for extra in project["optional-dependencies"].values() for pin in extra]
    return {re.split("==", p)[0].lower().replace("_", "-"): p.split("==")[1] for p in pins}


def _environment_pins():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pins = {}
    for item in env["dependencies"]:
        if isinstance(item, dict):
            for pip_item in item["pip"]:
                name, version = pip_item.split("==")
                pins[name.lower()] = version
        elif "=" in item and not item.startswith("python="):
            name, version = item.split("=")
            pins[name.lower()] = version
    return pins


def test_environment_yml_mirrors_pyproject():
    assert _environment_pins() == _pyproject_pins()


def test_readme_starts_with_the_two_commands_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"^```(?:bash|sh)\n(.+?)\n```", readme, flags=re.M | re.S)[:2]
    assert commands == ["bash scripts/reproduce.sh", "bash scripts/test.sh"]
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line and not line.startswith(("#", "set ", "cd "))]
    # the browser for tests/test_explore_browser.py, then exactly the README's test command
    assert ci == ["bash scripts/install_browser.sh", "bash scripts/test.sh"]
