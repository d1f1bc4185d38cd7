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
    log = tmp_path / "jupyter.log"
    command = [str(Path(sys.executable).with_name("jupyter-lab")), f"--config={CONFIG}", "--no-browser",
               "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root_dir}", *extra]
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
