"""The container, read rather than built (no Docker engine here): a slim Python image running as a
non-root user, no secret baked in, the state folder a volume, a HEALTHCHECK on the heartbeat that
works with the image's environment, `digest serve` as its command; and compose.yaml to match."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from digest.state import lock

REPO = Path(__file__).resolve().parent.parent
SECRETISH = re.compile(r"PASS|SECRET|TOKEN|WEBHOOK|KEY|SMTP_USER|CREDENTIAL", re.IGNORECASE)


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    text = (REPO / "Dockerfile").read_text(encoding="utf-8")
    joined = re.sub(
        r"\\\n",
        " ",
        "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")),
    )
    out = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            out.append((word.upper(), " ".join(rest.split())))
    return out


def env_keys(args: str) -> list[str]:
    return re.findall(r"(\w+)=", args) or [args.split()[0]]


def test_a_slim_python_311_image_running_digest_serve_as_a_non_root_user() -> None:
    steps = instructions()
    assert steps[0] == ("FROM", "python:3.11-slim")
    users = [args for word, args in steps if word == "USER"]
    assert users and users[-1] not in ("root", "0") and not users[-1].startswith("0:")
    last_user = max(i for i, (word, _) in enumerate(steps) if word == "USER")
    assert all(word != "RUN" for word, _ in steps[last_user:]), "RUN as root after USER"
    assert steps[-1] == ("CMD", '["digest", "serve"]')


def test_no_secret_is_baked_in() -> None:
    steps = instructions()
    keys = [k for word, args in steps if word in ("ENV", "ARG") for k in env_keys(args)]
    assert keys and not [k for k in keys if SECRETISH.search(k)]
    copied = " ".join(args for word, args in steps if word in ("COPY", "ADD"))
    assert ".env" not in copied and "state" not in copied.split()
    # Whatever the COPY lines say, the build context never holds a .env or local state.
    ignored = (REPO / ".dockerignore").read_text(encoding="utf-8").split()
    assert {".env", "**/.env", "state", "out", ".venv", ".git"} <= set(ignored)


def test_every_copied_path_exists() -> None:
    for word, args in instructions():
        if word == "COPY":
            *sources, _ = args.split()
            for source in sources:
                assert (REPO / source).exists(), f"COPY {source}: not in the repository"


def test_the_state_folder_is_a_volume_and_the_healthcheck_reads_its_heartbeat() -> None:
    steps = dict(instructions())  # the last of each kind
    volumes = json.loads(steps["VOLUME"])
    env = image_env()
    state = env["DIGEST_DEFAULT_STATE"]
    assert str(Path(state).parent) in volumes
    # DIGEST_STATE would win over a config's own [state] url: every container on a private
    # SQLite file, each sending every digest. It is for a container's own environment.
    assert "DIGEST_STATE" not in env
    assert Path(env["DIGEST_CONFIG"]).parts[:3] == ("/", "app", "config")
    check = steps["HEALTHCHECK"]
    assert check.endswith('CMD ["digest", "health"]') and "--interval=" in check


def image_env() -> dict[str, str]:
    """The ENV the Dockerfile sets."""
    return dict(re.findall(r"(\w+)=(\S+)", " ".join(a for w, a in instructions() if w == "ENV")))


def health(state: Path) -> subprocess.CompletedProcess[str]:
    """`digest health` with DIGEST_STATE set (a container's own) and no config file at all."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIGEST_")}
    env |= {"DIGEST_STATE": str(state), "DIGEST_CONFIG": str(state.parent / "missing.toml")}
    return image_command(env, state.parent, "health")


def image_command(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "digest", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_healthcheck_command_fails_without_a_fresh_heartbeat(tmp_path: Path) -> None:
    state = tmp_path / "digest.db"
    missing = health(state)
    assert missing.returncode == 1 and "no heartbeat" in missing.stdout
    lock.write_heartbeat(state, datetime.now(UTC))
    fresh = health(state)
    assert fresh.returncode == 0, fresh.stdout + fresh.stderr


@pytest.mark.parametrize("names", [False, True])
def test_with_the_images_environment_a_config_that_names_a_state_keeps_it(
    tmp_path: Path, names: bool
) -> None:
    """The image's state (/app/state here under tmp_path) is the state of a config naming none;
    one that names its own keeps it, for serve's heartbeat and for the HEALTHCHECK alike."""
    app = tmp_path / "app"
    (app / "config" / "papers").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIGEST_")}
    for name, value in image_env().items():
        env[name] = str(tmp_path / value.lstrip("/"))
    own = tmp_path / "elsewhere" / "digest.db"
    config = f'[state]\npath = "{own}"\n' if names else ""
    config += '[[sources]]\nkind = "files"\npath = "papers"\n'
    Path(env["DIGEST_CONFIG"]).write_text(config, encoding="utf-8")
    used = own if names else Path(env["DIGEST_DEFAULT_STATE"])
    lock.write_heartbeat(used, datetime.now(UTC))
    assert image_command(env, tmp_path, "health").returncode == 0
    checked = image_command(env, tmp_path, "validate")
    assert f"  state: {used}" in checked.stdout, checked.stdout + checked.stderr


def test_compose_runs_the_image_with_env_file_and_volumes() -> None:
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))
    service = compose["services"]["digest"]
    assert service["build"] == "." and service["env_file"] == ".env"
    assert "state:/app/state" in service["volumes"]
    assert any(v.startswith("./config:/app/config") for v in service["volumes"])
    assert "environment" not in service  # secrets come from .env only
    assert set(compose["volumes"]) >= {"state"}


def test_the_postgresql_compose_runs_two_named_workers_on_one_database() -> None:
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((REPO / "docs" / "compose.postgres.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    workers = {name: s for name, s in services.items() if name.startswith("worker-")}
    assert len(workers) == 2 and services["postgres"]["image"].startswith("postgres:")
    names = {s["environment"]["DIGEST_WORKER"] for s in workers.values()}
    assert names == {"worker-1", "worker-2"}
    for service in workers.values():
        assert service["build"] == "." and service["env_file"] == ".env"
        state = service["environment"]["DIGEST_STATE"]
        assert state == "postgresql://digest@postgres:5432/digest"  # the password stays in .env
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert "pgdata:/var/lib/postgresql/data" in services["postgres"]["volumes"]
