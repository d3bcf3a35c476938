"""A real meeting point for the browser tests: the published Nostr relay nostr-relay (PyPI), on 127.0.0.1.

``make test`` installs it into .venv-relay (tests/relay/requirements.txt). Each Relay has its own
port, configuration and database in a temporary folder; ``stop`` and ``start`` again keep both, as
a relay that went away and came back with what it stored.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RELAY = ROOT / ".venv-relay" / "bin" / "nostr-relay"
CONFIG = """DEBUG: false
storage:
  sqlalchemy.url: sqlite+aiosqlite:///{db}
  num_concurrent_reqs: 10
  num_concurrent_adds: 2
  validators:
    - nostr_relay.validators.is_not_too_large
    - nostr_relay.validators.is_signed
    - nostr_relay.validators.is_recent
max_event_size: 65536
gunicorn:
  bind: 127.0.0.1:{port}
  workers: 1
  loglevel: warning
  reload: false
authentication:
  enabled: false
message_timeout: 1800
subscription_limit: 32
max_limit: 6000
"""
START_TIMEOUT = 20.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Relay:
    """One nostr-relay process; ``url`` is its ws:// address."""

    def __init__(self):
        if not RELAY.is_file():
            raise RuntimeError(f"{RELAY} is missing: run `make deps-relay`")
        self.folder = Path(tempfile.mkdtemp(prefix="relay-"))
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}"
        self.config = self.folder / "config.yaml"
        self.config.write_text(CONFIG.format(db=self.folder / "events.sqlite3", port=self.port), encoding="utf-8")
        self.process = None
        self.start()

    def start(self) -> None:
        """Start the relay (again) and wait until it takes connections."""
        log = (self.folder / "relay.log").open("ab")
        self.process = subprocess.Popen([str(RELAY), "-c", str(self.config), "serve"], cwd=self.folder,
                                        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("the relay stopped at once:\n" + (self.folder / "relay.log").read_text()[-2000:])
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the relay did not start in time")

    def stop(self) -> None:
        """Stop the relay at once, as a relay that vanishes does (what it stored stays in its
        database: each event is written before the relay answers that it has it)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)  # its workers too, not left holding the port
            self.process.wait()
        self.process = None
