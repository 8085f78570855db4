"""The config file: what a valid one gives, and the one-line error for every kind of mistake."""

from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path

import pytest

from digest import config
from digest.cli import main
from digest.models import ConfigError

REPO = Path(__file__).resolve().parent.parent


def write(tmp_path: Path, body: str, name: str = "digest.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


MINIMAL = """
[[sources]]
kind = "seeds"
path = "seeds"

[[subscribers]]
name = "alice"
interests = "differential privacy"
"""


def error_of(tmp_path: Path, body: str, environ: dict[str, str] | None = None) -> str:
    path = write(tmp_path, body)
    with pytest.raises(ConfigError) as info:
        config.load(path, environ=environ or {})
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(path) + ": ")
    return message


def test_the_example_config_loads_with_three_file_subscribers() -> None:
    settings = config.load(REPO / "config" / "digest.toml", environ={})
    assert [s.name for s in settings.subscribers] == ["alice", "bob", "carol"]
    assert all(c.kind == "file" for s in settings.subscribers for c in s.channels)
    assert settings.sources[0].kind == "seeds"


def test_subscribers_inherit_defaults_and_override_them(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        MINIMAL
        + """
[[subscribers]]
name = "bob"
interests = "reasoning"
top_k = 3

[defaults]
top_k = 7
timezone = "Europe/Berlin"
""",
    )
    alice, bob = config.load(path, environ={}).subscribers
    assert (alice.top_k, bob.top_k) == (7, 3)
    assert alice.timezone == bob.timezone == "Europe/Berlin"
    assert alice.schedule == "0 8 * * *"  # the built-in default


def test_a_subscriber_without_channels_gets_the_file_channel(tmp_path: Path) -> None:
    (alice,) = config.load(write(tmp_path, MINIMAL), environ={}).subscribers
    assert [(c.kind, c.name) for c in alice.channels] == [("file", "file")]


def test_channels_of_one_kind_get_distinct_names(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        MINIMAL
        + """
[[subscribers.channels]]
kind = "file"
dir = "a"

[[subscribers.channels]]
kind = "file"
dir = "b"
""",
    )
    (alice,) = config.load(path, environ={}).subscribers
    assert [c.name for c in alice.channels] == ["file", "file-2"]
    assert alice.channels[1].options == {"dir": str(tmp_path / "b")}  # beside the config


def test_variables_come_from_the_environment_and_dotenv(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("OUT_DIR=from-dotenv\nOTHER=x\n")
    path = write(
        tmp_path,
        MINIMAL
        + """
[[subscribers.channels]]
kind = "file"
dir = "${OUT_DIR}"
to = "${MAIL}"
""",
    )
    (alice,) = config.load(path, environ={"MAIL": "a@example.org"}).subscribers
    dotenv = {"dir": str(tmp_path / "from-dotenv"), "to": "a@example.org"}
    assert alice.channels[0].options == dotenv
    (alice,) = config.load(path, environ={"MAIL": "m@x.org", "OUT_DIR": "env-wins"}).subscribers
    assert alice.channels[0].options["dir"] == str(tmp_path / "env-wins")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"\xff\xfeTOPIC=x\n", ".env: cannot read the .env file ('utf-8' codec can't decode"),
        (b"GOOD=1\nthis is not an assignment\n", ".env:2: not a NAME=value line"),
        # python-dotenv made it https://hooks.example.org/services/ and said nothing.
        (
            b"HOOK=https://hooks.example.org/services/${PART}\nPART=T00/B00/xyz\n",
            ".env:1: ${PART} is not set above this line (a .env is read from the top) nor in"
            " the environment",
        ),
    ],
)
def test_a_dotenv_it_cannot_read_is_one_line_naming_the_file(
    tmp_path: Path, text: bytes, message: str
) -> None:
    (tmp_path / ".env").write_bytes(text)
    path = write(tmp_path, MINIMAL)
    with pytest.raises(ConfigError) as info:
        config.load(path, environ={})
    assert str(info.value).startswith(str(tmp_path / message.split(":")[0]) + ":")
    assert message.split(":", 1)[1] in str(info.value) and "\n" not in str(info.value)


def test_a_dotenv_with_nul_bytes_is_refused_by_name(tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes(b"SLACK=https://hooks.example/a\x00b\n")
    path = write(tmp_path, MINIMAL)
    with pytest.raises(ConfigError, match=r"\.env: not a \.env file \(it holds NUL bytes\)"):
        config.load(path, environ={})


def test_a_dotenv_with_a_byte_order_mark_reads_its_first_name(tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes("\ufeffOUT_DIR=bom\n".encode())
    channel = '[[subscribers.channels]]\nkind = "file"\ndir = "${OUT_DIR}"\n'
    path = write(tmp_path, MINIMAL + channel)
    (alice,) = config.load(path, environ={}).subscribers
    assert alice.channels[0].options["dir"] == str(tmp_path / "bom")


def test_values_substituted_into_secret_keys_are_remembered_for_redaction(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        MINIMAL
        + """
[smtp]
password = "${SMTP_PASSWORD}"
host = "${SMTP_HOST}"
""",
    )
    settings = config.load(path, environ={"SMTP_PASSWORD": "hunter2", "SMTP_HOST": "mail"})
    assert settings.secrets == frozenset({"hunter2"})
    assert settings.smtp["password"] == "hunter2"


def test_a_feeds_password_or_token_written_in_the_file_is_a_secret(tmp_path: Path) -> None:
    """One file and no .env is a common setup: the credentials of a literal address are as
    secret as a substituted one's, and the rest of the address stays readable in errors."""
    feeds = """
[[sources]]
kind = "rss"
url = "http://reader:fe3dPASS@127.0.0.1:8/feed?api_key=K3Y-123456&format=atom"
[[sources]]
kind = "openreview"
name = "or"
venue = "ICLR.cc/2026/Conference"
url = "http://127.0.0.1:8/or?access_token=T0KEN-abcdef"
"""
    settings = config.load(write(tmp_path, MINIMAL + feeds), environ={})
    assert settings.secrets == {"fe3dPASS", "K3Y-123456", "T0KEN-abcdef"}


def test_a_check_that_quotes_a_secret_blots_it(tmp_path: Path) -> None:
    # One variable for the password and, by mistake, the sender: the sender's check quotes it.
    body = MINIMAL + '[smtp]\nhost = "h"\nusername = "u"\npassword = "${PW}"\nfrom = "${PW}"\n'
    message = error_of(tmp_path, body, {"PW": "hunter2hunter2"})
    assert "smtp.from: '[redacted]' is not one e-mail address" in message


def test_every_unset_variable_is_named_in_one_round(tmp_path: Path) -> None:
    body = MINIMAL + '[smtp]\nhost = "${SMTP_HOST}"\npassword = "${SMTP_PASSWORD}"\n'
    path = write(tmp_path, body)
    with pytest.raises(ConfigError) as info:
        config.load(path, environ={})
    assert str(info.value).splitlines() == [
        f"{path}: smtp.host: ${{SMTP_HOST}} is not set (in the environment or .env)",
        f"{path}: smtp.password: ${{SMTP_PASSWORD}} is not set (in the environment or .env)",
    ]


def test_a_missing_variable_names_the_key_and_the_variable(tmp_path: Path) -> None:
    message = error_of(
        tmp_path,
        MINIMAL
        + """
[[subscribers.channels]]
kind = "file"
dir = "${NOPE}"
""",
    )
    # Named as every other check names a subscriber's key (was "subscribers[0]...").
    assert "subscribers.alice.channels[0].dir" in message and "${NOPE} is not set" in message


def test_dollar_dollar_is_a_literal_dollar(tmp_path: Path) -> None:
    path = write(tmp_path, MINIMAL.replace("differential privacy", "costs $$5"))
    assert config.load(path, environ={}).subscribers[0].profile.interests == "costs $5"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            MINIMAL + "colour = 1\n",
            "subscribers.alice.colour: unknown key; allowed: alert_keywords, alert_threshold",
        ),
        ("oops = 1\n" + MINIMAL, "oops: unknown key; allowed: defaults, delivery, serve, smtp"),
        (MINIMAL + "top_k = 'ten'\n", "subscribers.alice.top_k: must be an integer, not a string"),
        (MINIMAL + "top_k = 0\n", "subscribers.alice.top_k: must be 1 to 1000, not 0"),
        (MINIMAL + "keywords = 'lora'\n", "keywords: must be a list of strings, not a string"),
        (
            MINIMAL + "authors = ['Ada', 1]\n",
            "authors: must be a list of strings; [1] is an integer",
        ),
        (MINIMAL + "min_score = true\n", "min_score: must be a number, not a boolean"),
        (MINIMAL + "timezone = 'Mars/Base'\n", "timezone: unknown time zone 'Mars/Base'"),
        (MINIMAL + "schedule = 'daily'\n", "subscribers.alice.schedule: not a crontab expression"),
        (
            MINIMAL + "schedule = '0 8 31 2 *'\n",
            "subscribers.alice.schedule: not a crontab expression (it never fires)",
        ),
        (
            MINIMAL + "schedule = '0 8 * * 1-9'\n",
            "subscribers.alice.schedule: not a crontab expression ('9' is not a weekday",
        ),
        (
            MINIMAL + "[[subscribers.channels]]\nkind = 'pigeon'\n",
            "channels[0].kind: unknown channel kind 'pigeon'; allowed: 'file'",
        ),
        (
            MINIMAL + "[[subscribers.channels]]\nkind = 'file'\nport = 1\n",
            "channels[0].port: unknown key; allowed: dir, kind, to",
        ),
        (
            MINIMAL.replace('kind = "seeds"', 'kind = "ftp"'),
            "sources[0].kind: unknown source kind 'ftp'; allowed: 'seeds', 'files'",
        ),
        (MINIMAL.replace('path = "seeds"', ""), "sources[0].path: missing; seeds needs it"),
        (
            MINIMAL + "[[subscribers]]\nname = 'alice'\ninterests = 'again'\n",
            "subscribers.alice: duplicate subscriber name",
        ),
        (  # one name to a reader: typed (NFC), and pasted from a Mac (NFD)
            MINIMAL.replace('name = "alice"', 'name = "Jos\u00e9"')
            + '[[subscribers]]\nname = "Jose\u0301"\ninterests = "again"\n',
            "subscribers.Jose\u0301: duplicate subscriber name",
        ),
        (
            MINIMAL.replace('name = "alice"', 'name = "nul\\u0000x"'),
            "subscribers[0].name: must not hold control characters",
        ),
        (MINIMAL.replace('name = "alice"', ""), "subscribers[0].name: every subscriber needs"),
        (
            MINIMAL.replace('interests = "differential privacy"', "name2 = 1"),
            "subscribers.alice.name2: unknown key",
        ),
        ("[[subscribers]]\nname = 'x'\n", "subscribers.x: says nothing about its interests"),
        ("[defaults]\ninterests = 'x'\n", "defaults.interests: unknown key"),
        ("sources = 3\n", "sources: must be an array of tables"),
        ("[state]\npath = 1\n", "state.path: must be a string, not an integer"),
        ("[defaults]\ntimezone = 'Nowhere'\n" + MINIMAL, "defaults.timezone: unknown time zone"),
    ],
)
def test_every_mistake_is_one_line_naming_the_key(tmp_path: Path, body: str, expected: str) -> None:
    assert expected in error_of(tmp_path, body)


def test_toml_syntax_errors_name_the_line(tmp_path: Path) -> None:
    message = error_of(tmp_path, "[[sources]\nkind = 1\n")
    assert "not valid TOML" in message and "line 1" in message


def test_a_windows_editors_bom_is_read_and_other_encodings_named_by_line(tmp_path: Path) -> None:
    # A UTF-8 BOM read as "Invalid statement (at line 1, column 1)"; Latin-1 as a byte offset.
    path = tmp_path / "digest.toml"
    path.write_bytes(b"\xef\xbb\xbf" + textwrap.dedent(MINIMAL).encode())
    assert config.load(path, environ={}).sources
    path.write_bytes(textwrap.dedent(MINIMAL).encode() + "# café\n".encode("latin-1"))
    with pytest.raises(ConfigError) as info:
        config.load(path, environ={})
    lines = textwrap.dedent(MINIMAL).count("\n") + 1
    assert str(info.value) == f"{path}:{lines}: not UTF-8 (byte 0xe9): save the file as UTF-8"
    path.write_text(MINIMAL, encoding="utf-16")
    with pytest.raises(ConfigError, match="is UTF-16: save it as UTF-8"):
        config.load(path, environ={})


def test_a_config_is_read_to_a_bound_and_a_pipe_is_a_config(tmp_path: Path) -> None:
    # /dev/zero was read until the machine ran out of memory; `--config <(envsubst ...)` reads.
    import os
    import threading

    with pytest.raises(ConfigError, match="^/dev/zero: over 4 MiB: not a config file$"):
        config.load(Path("/dev/zero"), environ={})
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"# " + b"x" * (5 * 2**20) + b"\n")
    with pytest.raises(ConfigError, match="over 4 MiB: not a config file"):
        config.load(huge, environ={})
    pipe = tmp_path / "piped.toml"
    os.mkfifo(pipe)
    writer = threading.Thread(target=pipe.write_text, args=(textwrap.dedent(MINIMAL),))
    writer.start()
    assert config.load(pipe, environ={}).sources
    writer.join()
    with pytest.raises(ConfigError, match="not a regular file; name the config file"):
        config.load(tmp_path, environ={})


def test_a_duration_too_long_to_read_is_one_line_in_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Python reads no integer of over 4,300 digits: validate, status and run gave a traceback.
    monkeypatch.delenv("DIGEST_STATE", raising=False)
    shutil.copytree(REPO / "seeds", tmp_path / "seeds")
    path = write(tmp_path, '[serve]\npoll_every = "' + "9" * 5000 + 's"\n' + MINIMAL)
    for command in (["validate"], ["status"], ["run", "--now", "2026-12-07T10:00Z"]):
        code = main([*command, "--config", str(path)])
        out, err = capsys.readouterr()
        line = f"digest: {path}: serve.poll_every: must be a duration of at most 365d\n"
        assert (code, out, err) == (2, "", line), command


def test_an_integer_too_long_to_read_is_one_line(tmp_path: Path) -> None:
    message = error_of(tmp_path, MINIMAL + "top_k = " + "9" * 5000 + "\n")
    assert "not valid TOML" in message and "4300" in message


@pytest.mark.parametrize("depth", [5000, 900])  # past the TOML parser's recursion, and past ours
def test_arrays_nested_too_deeply_are_one_line(tmp_path: Path, depth: int) -> None:
    message = error_of(tmp_path, "x = " + "[" * depth + "]" * depth + "\n")
    assert "nested too deeply" in message and "\n" not in message


@pytest.mark.parametrize("other", ["a/b", "A_B", "a:b"])
def test_two_subscribers_whose_digests_would_share_a_file_are_refused(
    tmp_path: Path, other: str
) -> None:
    body = MINIMAL + "\n".join(
        f'[[subscribers]]\nname = "{name}"\ninterests = "x"\n' for name in ("a_b", other)
    )
    message = error_of(tmp_path, body)
    assert f"subscribers.{other}.channels[0]: writes the same files as subscriber 'a_b'" in message
    fine = body + '[[subscribers.channels]]\nkind = "file"\ndir = "elsewhere"\n'
    assert [s.name for s in config.load(write(tmp_path, fine), environ={}).subscribers][-1] == other


def test_one_folder_spelled_two_ways_is_still_one_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With a relative --config (as the README runs it) one channel's dir stayed relative and the
    # other's absolute: the check missed them, and one digest overwrote the other.
    folder = tmp_path / "out"
    body = MINIMAL + (
        '[[subscribers]]\nname = "Anna Lee"\ninterests = "x"\n'
        '[[subscribers.channels]]\nkind = "file"\ndir = "out"\n'
        '[[subscribers]]\nname = "Anna_Lee"\ninterests = "x"\n'
        f'[[subscribers.channels]]\nkind = "file"\ndir = "{folder}"\n'
    )
    write(tmp_path, body)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as info:
        config.load("digest.toml", environ={})
    assert "subscribers.Anna_Lee.channels[0]: writes the same files as subscriber 'Anna Lee'" in (
        str(info.value)
    )


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ("[web]\n", "web: is empty: give base_url and secret, or leave [web] out"),
        (
            '[[subscribers.channels]]\nkind = "file"\nto = "not an address"\n',
            "channels[0].to: 'not an address' is not one e-mail address",
        ),
    ],
)
def test_an_empty_web_table_and_a_bad_file_to_are_errors(
    tmp_path: Path, extra: str, expected: str
) -> None:
    body = extra + MINIMAL if extra.startswith("[web]") else MINIMAL + extra
    assert expected in error_of(tmp_path, body)


def test_a_blank_library_says_nothing_about_interests(tmp_path: Path) -> None:
    body = MINIMAL.replace('interests = "differential privacy"', "library = ' '")
    assert "says nothing about its interests" in error_of(tmp_path, body)


@pytest.mark.parametrize("key", ["keywords", "exclude", "alert_keywords", "authors"])
def test_an_empty_word_in_a_list_is_named_by_its_place(tmp_path: Path, key: str) -> None:
    """Left out, it shifted the number of every later entry in validate's lines."""
    body = MINIMAL.replace('interests = "differential privacy"', f"{key} = ['x y', '', ' ']")
    if key != "keywords":
        body = body.replace(key, 'interests = "privacy"\n' + key, 1)
    with pytest.raises(ConfigError) as info:
        config.load(write(tmp_path, body), environ={})
    error = str(info.value)
    assert f"{key}[1]: is empty" in error and f"{key}[2]: is empty" in error
    assert f"{key}[0]" not in error


def test_a_missing_config_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        config.load(tmp_path / "nope.toml", environ={})


def test_every_mistake_is_reported_in_one_round_a_line_each(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        colour = "blue"

        [delivery]
        max_attempts = 0

        [[sources]]
        kind = []

        [[sources]]
        kind = "seeds"
        path = 7

        [[subscribers]]
        name = "alice"
        interests = "x"
        top_k = "ten"
        min_score = 2

        [[subscribers]]
        name = "bob"
        interests = "y"
        min_score = 2
        timezone = "Mars/Olympus"

        [[subscribers.channels]]
        kind = {}
        """,
    )
    with pytest.raises(ConfigError) as info:
        config.load(path, environ={})
    lines = str(info.value).splitlines()
    assert [line.split(": ", 1)[0] for line in lines] == [str(path)] * len(lines)
    keys = [line.split(": ")[1] for line in lines]
    assert sorted(keys) == sorted(
        [
            "colour",
            "sources[0].kind",
            "sources[1].path",
            "subscribers.alice.top_k",
            "subscribers.bob.timezone",
            "subscribers.bob.min_score",
            "subscribers.bob.channels[0].kind",
            "delivery.max_attempts",
        ]
    ), lines
    assert f"{path}: sources[0].kind: must be a string, not a list; allowed: 'seeds'" in lines[1]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("min_score = 2", "subscribers.alice.min_score: must be 0 to 1, not 2"),
        ("min_score = -0.1", "subscribers.alice.min_score: must be 0 to 1, not -0.1"),
        ("min_score = nan", "subscribers.alice.min_score: must be a finite number, not nan"),
        ("alert_threshold = inf", "subscribers.alice.alert_threshold: must be a finite number"),
        ("alert_threshold = 1.5", "subscribers.alice.alert_threshold: must be 0 to 1, not 1.5"),
        ("top_k = 10_000_000_000_000_000_000", "subscribers.alice.top_k: must be 1 to 1000"),
        ("max_alerts_per_day = 99999", "subscribers.alice.max_alerts_per_day: must be 0 to 1000"),
    ],
)
def test_numbers_outside_their_meaningful_range_are_refused(
    tmp_path: Path, line: str, expected: str
) -> None:
    assert expected in error_of(tmp_path, MINIMAL + line + "\n")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("[delivery]\nmax_wait = -1\n", "delivery.max_wait: must be 0 to 86400, not -1"),
        ("[delivery]\nmax_wait = nan\n", "delivery.max_wait: must be a finite number"),
        ("[delivery]\nmax_attempts = 1000\n", "delivery.max_attempts: must be 1 to 100"),
        ("[serve]\npoll_every = 1e400\n", "serve.poll_every: must be a duration"),
        ("[serve]\npoll_every = 99999999999\n", "serve.poll_every: must be a duration of at most"),
        (
            "[serve]\npoll_every = '9999999999d'\n",
            "serve.poll_every: must be a duration of at most",
        ),
        ('[state]\npath = ""\n', "state.path: must name a file"),
        (
            '[state]\npath = "postgresql://u:pw@db/x"\n',
            "state.path: must name a file: a postgresql:// URL is [state].url",
        ),
    ],
)
def test_table_numbers_outside_their_range_are_refused(
    tmp_path: Path, body: str, expected: str
) -> None:
    assert expected in error_of(tmp_path, body + MINIMAL)


# --- [web] --------------------------------------------------------------------------------------

SECRET = "9f2c4e1a7b3d8c6e0a5f1b2d4c6e8a0b"  # as `openssl rand -hex 16` makes one
WEB = (
    MINIMAL
    + """
[web]
base_url = "https://digest.example.org/"
secret = "${DIGEST_WEB_SECRET}"
"""
)


def test_web_is_optional_and_its_secret_is_redacted(tmp_path: Path) -> None:
    assert config.load(write(tmp_path, MINIMAL), environ={}).web == {}
    settings = config.load(write(tmp_path, WEB), environ={"DIGEST_WEB_SECRET": SECRET})
    assert settings.web == {
        "base_url": "https://digest.example.org",
        "secret": SECRET,
        "listen": "127.0.0.1:8080",
    }
    assert SECRET in settings.secrets


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ('base_url = "http://digest.example.org"', "web.base_url: must be https://"),
        ('base_url = "https://x.org/?a=1"', "web.base_url: must be a plain URL"),
        # into every link of every digest, and the logs
        ('base_url = "https://u:S3KRIT@x.org"', "web.base_url: must not hold a user or password"),
        *(
            (f'base_url = "https://x.org:{port}"', "web.base_url: has a port no address can have")
            for port in ("99999", "abc", "0")  # every 👍, archive and unsubscribe link dead
        ),
        ('listen = "8080"', "web.listen: must be host:port"),
        ('listen = "0.0.0.0:99999"', "web.listen: must be host:port"),
        ('listen = "999.1.1.1:8080"', "web.listen: must be host:port"),
        ("port = 8080", "web.port: unknown key; allowed: base_url, listen, secret"),
    ],
)
def test_web_mistakes_name_the_key(tmp_path: Path, extra: str, expected: str) -> None:
    body = (
        WEB.replace('base_url = "https://digest.example.org/"', "") if "base_url" in extra else WEB
    )
    message = error_of(tmp_path, body + extra + "\n", {"DIGEST_WEB_SECRET": SECRET})
    assert expected in message


def test_a_short_web_secret_or_a_missing_one_is_refused(tmp_path: Path) -> None:
    assert "web.secret: must be at least 16" in error_of(
        tmp_path, WEB, {"DIGEST_WEB_SECRET": "short"}
    )
    body = MINIMAL + '\n[web]\nbase_url = "https://digest.example.org"\n'
    assert "web.secret: missing" in error_of(tmp_path, body)


def example_env() -> dict[str, str]:
    """config/.env.example's NAME=value lines, as an operator uncomments them."""
    text = (REPO / "config" / ".env.example").read_text(encoding="utf-8")
    return dict(re.findall(r"^#\s*([A-Z_]+)=(.*)$", text, re.MULTILINE))


def test_the_env_examples_placeholders_uncommented_as_they_are_sign_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The example is public: a link signed with its web secret was forged and served (an
    archive), and its Slack signing secret would let anyone forge a button's click."""
    example = example_env()
    assert {"DIGEST_WEB_SECRET", "SLACK_SIGNING_SECRET"} <= set(example)
    (tmp_path / ".env").write_text("".join(f"{k}={v}\n" for k, v in example.items()))
    shutil.copytree(REPO / "seeds", tmp_path / "seeds")
    slack = (
        '[[subscribers.channels]]\nkind = "slack"\nwebhook = "https://hooks.slack.com/x/y"\n'
        'signing_secret = "${SLACK_SIGNING_SECRET}"\n'
    )
    path = write(tmp_path, WEB + slack)
    for name in example:
        monkeypatch.delenv(name, raising=False)
    code = main(["validate", "--config", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.splitlines() == [
        f"digest: {path}: subscribers.alice.channels[0].signing_secret: is the example of "
        "config/.env.example, which anyone can read: give the Slack app's own (Basic "
        "Information > App Credentials)",
        f"digest: {path}: web.secret: is the placeholder of config/.env.example, which anyone "
        "can read; make one with `openssl rand -hex 32` and keep it in .env",
    ]


def test_no_value_of_the_env_example_passes_as_the_web_secret(tmp_path: Path) -> None:
    for value in example_env().values():
        message = error_of(tmp_path, WEB, {"DIGEST_WEB_SECRET": value})
        assert ": web.secret: " in message and value not in message


@pytest.mark.parametrize(
    ("secret", "problem"),
    [
        (" " * 16, "is blank"),
        ("\t" * 40, "is blank"),
        ("ab" * 12, "has fewer than 6 different characters, so it is no random secret"),
        ("0123401234012340", "has fewer than 6 different characters, so it is no random secret"),
    ],
)
def test_a_blank_or_patterned_web_secret_is_refused_without_showing_it(
    tmp_path: Path, secret: str, problem: str
) -> None:
    message = error_of(tmp_path, WEB, {"DIGEST_WEB_SECRET": secret})
    assert message.endswith(
        f": web.secret: {problem}; make one with `openssl rand -hex 32` and keep it in .env"
    )
    assert secret not in message


def test_a_slack_signing_secret_needs_web(tmp_path: Path) -> None:
    body = MINIMAL + (
        '\n[[subscribers.channels]]\nkind = "slack"\nwebhook = "https://hooks.slack.com/x"\n'
        'signing_secret = "abc"\n'
    )
    message = error_of(tmp_path, body)
    assert "subscribers.alice.channels[0].signing_secret: needs a [web] table" in message


def test_a_home_of_no_such_user_is_a_path_as_written(tmp_path: Path) -> None:
    # "~0" is user 0's home, and there is no such user: Path.expanduser() raised RuntimeError.
    message = error_of(tmp_path, 'templates = "~0"\n' + MINIMAL)
    assert "templates" in message and "~0" in message
    # A NUL after the "~" (a fuzzed config) raised ValueError out of expanduser: a traceback.
    # No file system can hold it: refused (tests/test_config_paths.py has every path key).
    message = error_of(tmp_path, 'templates = "~\\u0000"\n' + MINIMAL)
    assert message.endswith(
        "templates: '~\\x00' holds a NUL character, which no file or folder name can"
    )


@pytest.mark.parametrize(
    ("line", "environ", "expected"),
    [
        # The braces forgotten, as compose, systemd and shells write it: a value that is just
        # $NAME, set or not, and a $NAME inside a value whose NAME is set.
        (
            'password = "$SMTP_PASSWORD"',
            {"SMTP_PASSWORD": "hunter2hunter2"},
            "smtp.password: '$SMTP_PASSWORD' is a variable as a shell writes it: write"
            " ${SMTP_PASSWORD}, or $$ for a literal $",
        ),
        (
            'host = "$SMTP_HOST"',
            {},
            "smtp.host: '$SMTP_HOST' is a variable as a shell writes it: write ${SMTP_HOST}",
        ),
        (
            'host = "mail.$DOMAIN"',
            {"DOMAIN": "example.org"},
            "smtp.host: '$DOMAIN' is a variable as a shell writes it: write ${DOMAIN}",
        ),
        # A ${...} that names no variable: kept as text, it had passed validate.
        ('password = "${SMTP-PASSWORD}"', {}, "smtp.password: holds a ${...} that names no"),
        ('host = "${1X}"', {}, "smtp.host: '${1X}' names no variable (letters, digits and _"),
        ('host = "${}"', {}, "smtp.host: '${}' names no variable"),
        ('host = "${X Y}"', {}, "smtp.host: '${X Y}' names no variable"),
        ('host = "${HOST:-mail}"', {}, "smtp.host: '${HOST:-mail}' names no variable"),
    ],
)
def test_a_variable_written_as_a_shell_writes_it_is_one_line_naming_the_key(
    tmp_path: Path, line: str, environ: dict[str, str], expected: str
) -> None:
    host = "" if line.startswith("host") else 'host = "h"\n'
    body = MINIMAL + f'[smtp]\n{host}from = "d@example.org"\n{line}\n'
    message = error_of(tmp_path, body, environ)
    assert expected in message


@pytest.mark.parametrize(
    "text",
    [
        r"N=4 super Yang-Mills, ${\cal N}=4$ and ${\rm SU}(N)$ gauge theories",
        r"the ${}^{3}$He and ${}^{4}$He isotopes",
        "path integrals in $PATH$ notation and $HOME$ spaces",
        # bash sets `_` (the last command's path) for every child; cron does not.
        r"MoS$_{2}$ monolayers, SLE$_\kappa$ and $_2F_1$",
        "$_",
    ],
)
def test_tex_math_in_an_interests_text_is_no_shell_variable(tmp_path: Path, text: str) -> None:
    r"""A reader's ${\cal N}=4$ had refused the whole config, every run with it."""
    body = MINIMAL.replace('"differential privacy"', f"'{text}'")  # a TOML literal string
    path = write(tmp_path, body)
    environ = {"PATH": "/usr/bin", "HOME": "/root", "_": "/usr/bin/digest"}
    settings = config.load(path, environ=environ)
    assert settings.subscribers[0].profile.interests == text


def test_a_secret_written_as_a_shell_variable_is_refused_without_showing_it(
    tmp_path: Path,
) -> None:
    # A web secret of "$DIGEST_WEB_SECRET" (18 characters, 12 different) had signed every link
    # with a key anyone who read the docs could guess; "$ecretKey123" may be a real password.
    web = '\n[web]\nbase_url = "https://digest.example.org"\nsecret = "$DIGEST_WEB_SECRET"\n'
    message = error_of(tmp_path, MINIMAL + web, {})
    assert message.endswith(
        "web.secret: holds a $ and a name, a variable as a shell writes it: write ${NAME}, or"
        " $$ for a literal $"
    )
    web = web.replace("$DIGEST_WEB_SECRET", "$ecretKey123")
    assert "ecretKey123" not in error_of(tmp_path, MINIMAL + web, {})


def test_a_dollar_that_is_no_variable_stays_a_dollar(tmp_path: Path) -> None:
    body = (
        MINIMAL.replace(
            "differential privacy", "privacy at $5 a pa$w0rd, and $$HOME and $$$$ and $"
        )
        + '[smtp]\nhost = "h"\nfrom = "d@example.org"\nusername = "u"\npassword = "pa$$w0rd!"\n'
    )
    settings = config.load(write(tmp_path, body), environ={"HOME": "/root"})
    assert settings.subscribers[0].profile.interests == (
        "privacy at $5 a pa$w0rd, and $HOME and $$ and $"
    )
    assert settings.smtp["password"] == "pa$w0rd!"  # "$$" is a "$", as documented


def test_shell_variables_and_unset_ones_are_all_named_in_one_round(tmp_path: Path) -> None:
    body = MINIMAL + '[smtp]\nhost = "${SMTP_HOST}"\nfrom = "$SMTP_FROM"\n'
    path = write(tmp_path, body)
    with pytest.raises(ConfigError) as info:
        config.load(path, environ={})
    assert [line.split(": ")[1] for line in str(info.value).splitlines()] == [
        "smtp.host",
        "smtp.from",
    ]


@pytest.mark.parametrize("kind", ["folder", "dangling link"])
def test_a_dotenv_beside_the_config_that_is_no_file_is_one_line_naming_it(
    tmp_path: Path, kind: str
) -> None:
    # A secrets mount that is missing leaves a dangling link: it had been skipped without a
    # word, and each ${VAR} it binds was blamed instead.
    dotenv = tmp_path / ".env"
    if kind == "folder":
        dotenv.mkdir()
        why = "it is a folder"
    else:
        target = tmp_path / "run" / "secrets" / "digest.env"
        dotenv.symlink_to(target)
        why = f"a symbolic link to {target}, which does not exist"
    path = write(tmp_path, MINIMAL.replace("differential privacy", "${TOPIC}"))
    with pytest.raises(ConfigError) as info:
        config.load(path, environ={})
    assert str(info.value) == f"{dotenv}: cannot read the .env file ({why})"
    # A folder is often a virtualenv: in the way only of a ${VAR} set nowhere else.
    path = write(tmp_path, MINIMAL)
    if kind == "folder":
        assert config.load(path, environ={}).subscribers[0].profile.interests
    else:
        with pytest.raises(ConfigError, match="which does not exist"):
            config.load(path, environ={})


@pytest.mark.parametrize(
    "web",
    [
        'base_url = "https://digest.example.org"\nsecret = "SECRETweb"',
        'base_url = "https://digest.example.org/?a=1"\nsecret = "0123456789abcdefXYZ"',
    ],
)
def test_a_broken_web_table_is_not_also_called_missing_by_slack(tmp_path: Path, web: str) -> None:
    # "a part that depends on a broken one is not checked further": a second line had sent the
    # operator looking for a [web] table that was there.
    slack = (
        '\n[[subscribers.channels]]\nkind = "slack"\nwebhook = "https://hooks.slack.com/x"\n'
        'signing_secret = "abcdefghijklmnopqrstuvwx"\n'
    )
    path = write(tmp_path, MINIMAL + slack + f"\n[web]\n{web}\n")
    with pytest.raises(ConfigError) as info:
        config.load(path, environ={})
    (line,) = str(info.value).splitlines()
    assert line.startswith(f"{path}: web.")
