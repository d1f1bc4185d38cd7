"""A real Jupyter server for the tests (JupyterLab's, with the repository's ``jupyter_server_config.py``), started
on 127.0.0.1 and stopped after, and a small client of its REST API and kernel websocket: what JupyterLab does
when it opens, runs and saves a notebook."""
from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "jupyter_server_config.py"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class JupyterServer:
    def __init__(self, url: str, token: str, process: subprocess.Popen, log: Path):
        self.url, self.token, self.process, self.log = url, token, process, log
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"token {token}"

    def api(self, method: str, path: str, **kwargs) -> requests.Response:
        response = self.http.request(method, f"{self.url}/api/{path}", timeout=60, **kwargs)
        response.raise_for_status()
        return response

    def get_notebook(self, path: str) -> dict:
        return self.api("GET", f"contents/{path}", params={"content": 1}).json()

    def save_notebook(self, path: str, content: dict) -> dict:
        return self.api("PUT", f"contents/{path}", json={"type": "notebook", "format": "json",
                                                         "content": content}).json()

    def run_notebook(self, path: str, content: dict, cells: int | None = None, timeout: float = 300) -> dict:
        """Run the first ``cells`` code cells (None: all) of ``content`` in a kernel of a session opened on
        ``path``, as JupyterLab does; the outputs, execution counts and the kernel's ``language_info`` are written
        into ``content`` (returned), as JupyterLab's model holds them before a save."""
        session = self.api("POST", "sessions", json={"path": path, "type": "notebook", "name": "",
                                                     "kernel": {"name": "python3"}}).json()
        try:
            return asyncio.run(self._run(session["kernel"]["id"], content, cells, timeout))
        finally:
            self.api("DELETE", f"sessions/{session['id']}")

    async def _run(self, kernel_id: str, content: dict, cells: int | None, deadline_seconds: float) -> dict:
        from tornado.websocket import websocket_connect
        ws_url = self.url.replace("http://", "ws://") + f"/api/kernels/{kernel_id}/channels?token={self.token}"
        connection = await websocket_connect(ws_url)
        deadline = time.monotonic() + deadline_seconds
        session_id = uuid.uuid4().hex

        async def request(msg_type: str, body: dict) -> tuple[dict, list[dict]]:
            msg_id = uuid.uuid4().hex
            await connection.write_message(json.dumps({
                "header": {"msg_id": msg_id, "msg_type": msg_type, "session": session_id, "username": "test",
                           "version": "5.3", "date": ""},
                "parent_header": {}, "metadata": {}, "content": body, "channel": "shell", "buffers": []}))
            reply, outputs, idle = None, [], False
            while reply is None or not idle:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"the kernel did not answer {msg_type} in time")
                message = json.loads(await asyncio.wait_for(connection.read_message(), remaining))
                if message.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind = message["header"]["msg_type"]
                if message["channel"] == "shell":
                    reply = message
                elif kind == "status" and message["content"]["execution_state"] == "idle":
                    idle = True
                elif kind == "stream":
                    outputs.append({"output_type": "stream", "name": message["content"]["name"],
                                    "text": message["content"]["text"]})
                elif kind in ("display_data", "execute_result"):
                    output = {"output_type": kind, "data": message["content"]["data"],
                              "metadata": message["content"]["metadata"]}
                    if kind == "execute_result":
                        output["execution_count"] = message["content"]["execution_count"]
                    outputs.append(output)
                elif kind == "error":
                    outputs.append({"output_type": "error", **{k: message["content"][k]
                                                                 for k in ("ename", "evalue", "traceback")}})
            return reply, outputs

        try:
            info, _ = await request("kernel_info_request", {})
            content.setdefault("metadata", {})["language_info"] = info["content"]["language_info"]
            ran = 0
            for cell in content["cells"]:
                if cell["cell_type"] != "code" or (cells is not None and ran >= cells):
                    continue
                reply, outputs = await request("execute_request", {
                    "code": cell["source"], "silent": False, "store_history": True, "user_expressions": {},
                    "allow_stdin": False, "stop_on_error": True})
                if reply["content"]["status"] != "ok":
                    raise RuntimeError(f"a cell failed: {reply['content'].get('ename')}: "
                                       f"{reply['content'].get('evalue')}")
                cell["outputs"] = outputs
                cell["execution_count"] = reply["content"]["execution_count"]
                cell.setdefault("metadata", {})["execution"] = {"iopub.status.idle": "2026-01-01T00:00:00Z"}
                ran += 1
            return content
        finally:
            connection.close()


@contextmanager
def jupyter_lab(root_dir: Path, tmp_path: Path, *extra: str):
    """JupyterLab serving ``root_dir`` on 127.0.0.1 with the repository's server config, as the README starts it
    (kernels import this checkout); its own config, data and runtime folders under ``tmp_path``."""
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "jupyter-runtime"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "jupyter-workspaces"),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    # no "Jupyter news?" toast over the page (it fetches nothing on this offline machine, and covers widgets)
    settings = tmp_path / "jupyterlab-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    env["JUPYTERLAB_SETTINGS_DIR"] = str(tmp_path / "jupyterlab-settings")
    log = tmp_path / "jupyter.log"
    command = [str(Path(sys.executable).with_name("jupyter-lab")), f"--config={CONFIG}", "--no-browser",
               "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root_dir}",
               # checkpoints in the test's folder, not .ipynb_checkpoints/ beside the repository's notebooks
               f"--FileCheckpoints.checkpoint_dir={tmp_path / 'checkpoints'}", *extra]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # CI containers run as root
    with open(log, "w") as handle:
        process = subprocess.Popen(command, cwd=root_dir, env=env, stdout=handle, stderr=subprocess.STDOUT)
    server = JupyterServer(f"http://127.0.0.1:{port}", token, process, log)
    try:
        started = time.monotonic()
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"jupyter lab exited: {log.read_text()[-2000:]}")
            try:
                server.api("GET", "status")
                break
            except requests.RequestException:
                if time.monotonic() - started > 60:
                    raise RuntimeError(f"jupyter lab did not start in 60 s: {log.read_text()[-2000:]}") from None
                time.sleep(0.3)
        server.start_seconds = time.monotonic() - started
        yield server
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# ---- a headless browser -----------------------------------------------------------------------------------------------
#: Chromium's flags on a machine without network or display: no sandbox (containers run as root), no GPU, and none
#: of the background fetches (QUIC, updates, sync) that would wait on a network.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage"]


def browser_paths() -> tuple[str | None, str | None]:
    """The installed Chromium and its driver (``scripts/install_browser.sh`` installs Debian's), or None."""
    import shutil
    browser = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)),
                   None)
    return browser, shutil.which("chromedriver")


def missing_browser() -> str | None:
    """Why no browser test can run here (one line), or None."""
    import importlib.util
    browser, driver = browser_paths()
    if browser is None or driver is None or importlib.util.find_spec("selenium") is None:
        return "no headless browser (chromium, chromedriver, selenium): bash scripts/install_browser.sh installs one"
    return None


@contextmanager
def headless_chromium(profile: Path, width: int = 1366, height: int = 900):
    """Selenium driving the system's Chromium, headless, with a fresh profile in ``profile``; the window as a
    laptop's screen."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    browser, driver_path = browser_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in [*CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def notebook_with_parameters(source: Path, target: Path, **parameters) -> Path:
    """A copy of the notebook ``source`` at ``target`` with ``parameters`` set in a cell after its parameters
    cell, as papermill injects them."""
    import nbformat
    notebook = nbformat.read(source, as_version=4)
    after = next(i for i, cell in enumerate(notebook.cells) if "parameters" in cell.metadata.get("tags", []))
    notebook.cells.insert(after + 1, nbformat.v4.new_code_cell(
        "\n".join(f"{name} = {value!r}" for name, value in parameters.items())))
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, target)
    return target


class LabPage:
    """A notebook opened in JupyterLab in the browser, run, and its explorer driven by clicks."""

    def __init__(self, driver, server: JupyterServer):
        self.driver, self.server = driver, server

    #: The notebook shown (JupyterLab keeps other tabs' DOM: every query is made inside this one)
    PANEL = "window.jupyterapp.shell.currentWidget.node"

    def element(self, css: str):
        """The first element matching ``css`` in the notebook shown."""
        found = self.script(f"return {self.PANEL}.querySelector(arguments[0]);", css)
        if found is None:
            raise LookupError(f"no {css} in the notebook shown")
        return found

    def button(self, text: str):
        """The button labelled ``text`` in the notebook shown."""
        found = self.script(f"return Array.from({self.PANEL}.querySelectorAll('button'))"
                            ".find(b => b.innerText.trim() === arguments[0]) || null;", text)
        if found is None:
            raise LookupError(f"no button {text!r} in the notebook shown")
        return found

    def wait(self, condition, timeout: float, what: str):
        from selenium.webdriver.support.ui import WebDriverWait
        return WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(lambda d: condition(d), message=what)

    def script(self, code: str, *args):
        return self.driver.execute_script(code, *args)

    def open_and_run(self, path: str, timeout: float = 120) -> float:
        """Open ``path`` (a notebook under the server's root), wait for its kernel, run all cells and wait for the
        explorer's board; returns the seconds from opening to the board shown."""
        started = time.monotonic()
        # reset: no tab of an earlier notebook restored beside it
        self.driver.get(f"{self.server.url}/lab/tree/{path}?reset&token={self.server.token}")
        self.wait(lambda d: d.execute_script(
            "const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
            "const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;"
            "return !!(k && k.status === 'idle' && w.content && w.content.widgets.length);"), timeout,
            f"{path}: JupyterLab did not open the notebook with an idle kernel")
        self.script("window.jupyterapp.commands.execute('notebook:run-all-cells');")
        self.wait(lambda d: d.execute_script(f"return !!{self.PANEL}.querySelector('.ppalib-board svg [id^=\"target-\"]')"),
                  timeout, f"{path}: no board after running all cells")
        return time.monotonic() - started

    def board_state(self) -> dict:
        return self.script(f"const panel = {self.PANEL};" + """
            const board = panel.querySelector('.ppalib-board');
            const text = (c) => { const e = panel.querySelector('.' + c); return e ? e.innerText : ''; };
            return {drawn: Number(board.dataset.drawn), busy: board.dataset.busy === 'true',
                    status: text('ppalib-status'), line: text('ppalib-line'), message: text('ppalib-message'),
                    progress: text('ppalib-progress'),
                    pieces: Array.from(board.querySelectorAll('[id^="piece-"]')).map(e => e.id),
                    legal: board.querySelectorAll('path[style*="fill: #7bc47b"]').length,
                    svg: board.querySelector('svg').outerHTML.length};""")

    def click_cell(self, cell: int) -> dict:
        """Click the board's cell ``cell`` as a user does (the mouse on its target) and wait until the board is
        redrawn; returns the board's state just after."""
        from selenium.webdriver.common.action_chains import ActionChains
        before = self.board_state()["drawn"]
        target = self.element(f'.ppalib-board [id="target-{cell}"] path')
        ActionChains(self.driver).move_to_element(target).click().perform()
        self.wait(lambda d: self.board_state()["drawn"] > before, 30, f"the board was not redrawn after a click "
                                                                      f"on cell {cell}")
        return self.board_state()

    def wait_idle(self, timeout: float = 120) -> dict:
        """Wait until no agent thinks (the board takes clicks again); returns the board's state."""
        self.wait(lambda d: not self.board_state()["busy"], timeout, "the agent did not reply in time")
        return self.board_state()

    def screenshot_explorer(self, target: Path) -> Path:
        """A PNG of the explorer widget alone (board and controls) at ``target``."""
        element = self.element(".ppalib-explorer")
        self.script("arguments[0].scrollIntoView({block: 'start'});", element)
        target.parent.mkdir(parents=True, exist_ok=True)
        element.screenshot(str(target))
        return target
