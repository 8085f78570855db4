"""A real Synapse homeserver on 127.0.0.1 for the Matrix tests, shared by the whole test session.

Minimal config: a client listener on 127.0.0.1 only, SQLite, no federation listener and no
federation partners, no trusted key servers, registration by shared secret. `relaxed` raises the
rate limits so the tests run fast; the other keeps Synapse's defaults to produce real 429s.
"""

from __future__ import annotations

import atexit
import hashlib
import hmac
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from channel_servers import free_port

SERVER_NAME = "digest.test"
SLOW = 60.0  # seconds: a 2-core machine running several suites can keep Synapse busy a while
RELAXED_LIMITS = """
rc_message: {per_second: 1000, burst_count: 1000}
rc_registration: {per_second: 1000, burst_count: 1000}
rc_login:
  address: {per_second: 1000, burst_count: 1000}
  account: {per_second: 1000, burst_count: 1000}
  failed_attempts: {per_second: 1000, burst_count: 1000}
rc_joins:
  local: {per_second: 1000, burst_count: 1000}
  remote: {per_second: 1000, burst_count: 1000}
rc_room_creation: {per_second: 1000, burst_count: 1000}
rc_invites:
  per_room: {per_second: 1000, burst_count: 1000}
  per_user: {per_second: 1000, burst_count: 1000}
  per_issuer: {per_second: 1000, burst_count: 1000}
"""
_SHARED: dict[str, Homeserver] = {}


def shared(relaxed: bool = True) -> Homeserver:
    """The session's homeserver of that kind, stopped at exit. Both kinds start together on first
    use: each takes seconds, most of it waiting, and the second one's start overlaps the first's."""
    if not _SHARED:
        for name, kind in (("relaxed", True), ("default-limits", False)):
            _SHARED[name] = Homeserver(kind)
            atexit.register(_SHARED[name].stop)
    server = _SHARED["relaxed" if relaxed else "default-limits"]
    server.wait_until_up()
    return server


class Homeserver:
    def __init__(self, relaxed: bool) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="digest-synapse-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.secret = secrets.token_hex(16)
        config = self.root / "homeserver.yaml"
        config.write_text(self._config(relaxed), encoding="utf-8")
        command = [sys.executable, "-m", "synapse.app.homeserver", "-c", str(config)]
        subprocess.run([*command, "--generate-keys"], check=True, capture_output=True)
        self.log = (self.root / "synapse.log").open("wb")
        self.process = subprocess.Popen(
            command,
            cwd=self.root,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.up = False

    def _config(self, relaxed: bool) -> str:
        root = self.root
        return f"""
server_name: "{SERVER_NAME}"
pid_file: "{root}/homeserver.pid"
listeners:
  - port: {self.port}
    bind_addresses: ["127.0.0.1"]
    type: http
    tls: false
    x_forwarded: false
    resources:
      - names: [client]
        compress: false
database:
  name: sqlite3
  args:
    database: "{root}/homeserver.db"
media_store_path: "{root}/media"
signing_key_path: "{root}/signing.key"
registration_shared_secret: "{self.secret}"
macaroon_secret_key: "{secrets.token_hex(16)}"
form_secret: "{secrets.token_hex(16)}"
report_stats: false
trusted_key_servers: []
suppress_key_server_warning: true
federation_domain_whitelist: []
enable_metrics: false
presence:
  enabled: false
url_preview_enabled: false
bcrypt_rounds: 4  # the default 12 cost a third of a second per registered test user
{RELAXED_LIMITS if relaxed else ""}
"""

    def wait_until_up(self) -> None:
        deadline = time.monotonic() + 90
        while not self.up and time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                if httpx.get(f"{self.url}/_matrix/client/versions", timeout=1).is_success:
                    self.up = True
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        if self.up:
            return
        tail = (self.root / "synapse.log").read_text(errors="replace")[-3000:]
        self.stop()
        raise RuntimeError(f"Synapse did not start:\n{tail}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.root, ignore_errors=True)

    # The client-server API, as a test needs it.

    def register(self, user: str, password: str | None = None) -> str:
        """A new user through the shared-secret admin API; returns its access token."""
        endpoint = f"{self.url}/_synapse/admin/v1/register"
        nonce = httpx.get(endpoint, timeout=SLOW).json()["nonce"]
        password = password or secrets.token_urlsafe(12)
        mac = hmac.new(self.secret.encode(), digestmod=hashlib.sha1)
        mac.update(b"\x00".join([nonce.encode(), user.encode(), password.encode(), b"notadmin"]))
        body = {"nonce": nonce, "username": user, "password": password, "admin": False}
        response = httpx.post(endpoint, json={**body, "mac": mac.hexdigest()}, timeout=SLOW)
        response.raise_for_status()
        return str(response.json()["access_token"])

    def call(self, token: str, method: str, path: str, **kwargs: Any) -> Any:
        headers = {"Authorization": f"Bearer {token}"}
        response = httpx.request(
            method, f"{self.url}{path}", headers=headers, timeout=SLOW, **kwargs
        )
        response.raise_for_status()
        return response.json()

    def create_room(
        self, token: str, alias: str | None = None, invite: tuple[str, ...] = ()
    ) -> str:
        body: dict[str, Any] = {"preset": "private_chat", "invite": list(invite)}
        if alias:
            body["room_alias_name"] = alias
        return str(self.call(token, "POST", "/_matrix/client/v3/createRoom", json=body)["room_id"])

    def join(self, token: str, room: str) -> None:
        self.call(token, "POST", f"/_matrix/client/v3/join/{quote(room, safe='')}", json={})

    def messages(self, token: str, room: str) -> list[dict[str, Any]]:
        """Every m.room.message of the room, oldest first."""
        events: list[dict[str, Any]] = []
        path = f"/_matrix/client/v3/rooms/{quote(room, safe='')}/messages"
        params: dict[str, Any] = {"dir": "f", "limit": 100}
        while True:
            page = self.call(token, "GET", path, params=params)
            events += [e for e in page.get("chunk", []) if e.get("type") == "m.room.message"]
            if not page.get("end") or not page.get("chunk"):
                return events
            params["from"] = page["end"]
