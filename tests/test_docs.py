"""The documents against the code: docs/configuration.md documents exactly the keys the config
checker accepts, section by section; its examples are valid; and no document points outside the
repository."""

from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path

import pytest

from digest import sources
from digest.cli import parser
from digest.config import load
from digest.config.loader import accepted_keys
from digest.models import ConfigError

REPO = Path(__file__).resolve().parent.parent
CONFIGURATION = REPO / "docs" / "configuration.md"
ARRAYS = {"sources", "subscribers", "subscribers.channels"}  # [[...]] in TOML
UNKNOWN = "zz_not_a_key"
_TABLE_HEADING = re.compile(r"`\[\[?([\w.]+)\]\]?`")
_KIND_HEADING = re.compile(r'`kind = "([\w-]+)"`')
_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|")


def documented(text: str) -> dict[str, set[str]]:
    """Place -> keys, read from the key tables of configuration.md: a row whose first cell is
    `key`, under `## Top level` (place ""), under `## [table]` or `## [[array]]` (place "table"),
    or under `### kind = "k"` within one (place "table.k"). Other sections hold no keys."""
    found: dict[str, set[str]] = {}
    place: str | None = None
    table: str | None = None
    for line in text.splitlines():
        if line.startswith("## "):
            title = line[3:].strip()
            match = _TABLE_HEADING.fullmatch(title)
            table = "" if title == "Top level" else match[1] if match else None
            place = table
        elif line.startswith("### ") and table is not None:
            match = _KIND_HEADING.fullmatch(line[4:].strip())
            place = f"{table}.{match[1]}" if match else table
        elif place is not None and (row := _ROW.match(line)):
            found.setdefault(place, set()).add(row[1])
    return found


def shown(place: str) -> str:
    """A place as the document's headings name it."""
    if not place:
        return "Top level"
    for array in sorted(ARRAYS, key=len, reverse=True):
        if place == array:
            return f"[[{array}]]"
        if place.startswith(array + "."):
            return f'[[{array}]] kind = "{place[len(array) + 1 :]}"'
    return f"[{place}]"


def differences(want: dict[str, frozenset[str]], have: dict[str, set[str]]) -> list[str]:
    lines = []
    for place in sorted(set(want) | set(have)):
        missing = sorted(want.get(place, set()) - have.get(place, set()))
        extra = sorted(have.get(place, set()) - want.get(place, set()))
        if missing:
            keys = ", ".join(missing)
            lines.append(f"{shown(place)}: accepted by the checker, not documented: {keys}")
        if extra:
            keys = ", ".join(extra)
            lines.append(f"{shown(place)}: documented, but the checker refuses: {keys}")
    return lines


def test_every_accepted_key_is_documented_and_every_documented_key_accepted() -> None:
    problems = differences(accepted_keys(), documented(CONFIGURATION.read_text(encoding="utf-8")))
    if problems:
        where = CONFIGURATION.relative_to(REPO)
        pytest.fail(f"{where} and the config checker differ:\n" + "\n".join(problems), False)


def test_the_comparison_names_a_missing_and_an_extra_key() -> None:
    text = """
## `[smtp]`

| key | type |
| --- | --- |
| `host` | string |
| `hots` | string |

## Paths

| `path` | not a key table: no section heading above it |

## `[[sources]]`

### `kind = "rss"`

| `url` | string |
"""
    have = documented(text)
    assert have == {"smtp": {"host", "hots"}, "sources.rss": {"url"}}
    want = {"smtp": frozenset({"host", "port"}), "sources.rss": frozenset({"url"})}
    assert differences(want, have) == [
        "[smtp]: accepted by the checker, not documented: port",
        "[smtp]: documented, but the checker refuses: hots",
    ]
    assert differences({"sources.arxiv": frozenset({"days"})}, {}) == [
        '[[sources]] kind = "arxiv": accepted by the checker, not documented: days'
    ]


def test_every_top_level_table_has_its_keys_listed() -> None:
    places = accepted_keys()
    tables = {p for p in places if p and "." not in p}
    # `templates` is the one top-level key that is a value, not a table.
    assert tables == places[""] - {"templates"}


MINIMAL = """
[[sources]]
kind = "seeds"
path = "seeds"

[[subscribers]]
name = "ana"
interests = "differential privacy"
"""


def probe(place: str) -> str:
    """A config that is valid but for one unknown key at `place`."""
    table, _, kind = place.partition(".")
    if not place:
        return f"{UNKNOWN} = 1\n{MINIMAL}"
    if table == "sources":
        return f'[[sources]]\nkind = "{kind or "seeds"}"\n{UNKNOWN} = 1\n'
    if table == "subscribers" and kind:
        kind = kind.removeprefix("channels").removeprefix(".") or "file"
        channel = f'[[subscribers.channels]]\nkind = "{kind}"\n{UNKNOWN} = 1\n'
        return f"{MINIMAL}\n{channel}"
    if table == "subscribers":
        return f"{MINIMAL}{UNKNOWN} = 1\n"
    return f"[{table}]\n{UNKNOWN} = 1\n{MINIMAL}"


@pytest.mark.parametrize("place", sorted(accepted_keys()), ids=lambda p: shown(p))
def test_the_listed_keys_are_those_the_checker_allows(place: str, tmp_path: Path) -> None:
    """An unknown key is refused with the list of the keys allowed there: accepted_keys() must
    be that list, or the documentation test above would compare with something else."""
    places = accepted_keys()
    allowed = set(places[place])
    for common in ("sources", "subscribers.channels"):
        if place.startswith(common + "."):
            allowed |= places[common]
    if place in ("sources", "subscribers.channels"):
        allowed |= places[f"{place}.{'seeds' if place == 'sources' else 'file'}"]
    path = tmp_path / "digest.toml"
    path.write_text(probe(place), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load(path, environ={})
    assert f"{UNKNOWN}: unknown key; allowed: {', '.join(sorted(allowed))}" in str(info.value)


def rows(text: str) -> list[tuple[str, str]]:
    """(key, example cell) of every key table row that has an example."""
    out = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if _ROW.match(line) and len(cells) == 5 and cells[4].startswith("`"):
            out.append((cells[0].strip("`"), cells[4].strip("`")))
    return out


def test_every_example_in_the_key_tables_sets_its_own_key() -> None:
    examples = rows(CONFIGURATION.read_text(encoding="utf-8"))
    assert len(examples) > 40
    for key, example in examples:
        if example.startswith("["):  # a table header: [state], [[sources]], [[defaults.channels]]
            assert example.strip("[]").rsplit(".", 1)[-1] == key, (key, example)
            continue
        assert list(tomllib.loads(example)) == [key], (
            f"`{key}`: example {example!r} sets another key"
        )


def test_the_complete_example_is_a_valid_config(tmp_path: Path) -> None:
    text = CONFIGURATION.read_text(encoding="utf-8")
    example = text.split("## A complete example", 1)[1].split("```toml\n", 1)[1].split("```")[0]
    path = tmp_path / "digest.toml"
    path.write_text(example, encoding="utf-8")
    environ = {
        "SMTP_USER": "digest@example.org",
        "SMTP_PASSWORD": "secret",
        "SLACK_WEBHOOK_ALICE": "https://hooks.slack.com/services/T0/B0/x",
    }
    settings = load(path, environ=environ)
    sources.check(settings)
    assert [s.name for s in settings.subscribers] == ["alice"]
    assert [c.kind for c in settings.subscribers[0].channels] == ["email", "slack"]


def test_no_document_points_outside_the_repository() -> None:
    documents = [REPO / "README.md", REPO / "CHANGELOG.md", *sorted((REPO / "docs").glob("*.md"))]
    assert len(documents) >= 7
    for document in documents:
        text = document.read_text(encoding="utf-8")
        outside = "../" + "shared"  # spelled so that this file does not mention it either
        assert outside not in text, f"{document.relative_to(REPO)} mentions {outside}"


def anchors(text: str) -> set[str]:
    """The anchors a Markdown page offers: GitHub's slug of each heading, and <a id="...">."""
    slugs = set(re.findall(r'<a id="([^"]+)">', text))
    for heading in re.findall(r"^#+ (.+)$", text, re.MULTILINE):
        slugs.add(re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-"))
    return slugs


def test_every_link_between_documents_reaches_a_file_and_its_anchor() -> None:
    for document in [REPO / "README.md", REPO / "CHANGELOG.md", *(REPO / "docs").glob("*.md")]:
        text = document.read_text(encoding="utf-8")
        for target, anchor in re.findall(r"\]\(([^)#:\s]*)(?:#([^)\s]*))?\)", text):
            where = (document.parent / target) if target else document
            name = f"{document.relative_to(REPO)}: link to {target}#{anchor}"
            assert where.exists(), f"{name}: no such file"
            if anchor and where.suffix == ".md":
                assert anchor in anchors(where.read_text(encoding="utf-8")), f"{name}: no anchor"


def code_block(text: str, after: str, language: str) -> str:
    """The first fenced block of `language` after the heading or line `after`."""
    return text.split(after, 1)[1].split(f"```{language}\n", 1)[1].split("```", 1)[0]


def test_the_readme_smallest_config_is_valid(tmp_path: Path) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    path = tmp_path / "digest.toml"
    path.write_text(code_block(readme, "## The smallest config", "toml"), encoding="utf-8")
    (subscriber,) = load(path, environ={}).subscribers
    assert [c.kind for c in subscriber.channels] == ["file"]
    assert (subscriber.top_k, subscriber.schedule, subscriber.timezone) == (10, "0 8 * * *", "UTC")


def commands() -> dict[str, set[str]]:
    """Each `digest` command -> the options it takes."""
    subparsers = next(
        a for a in parser.build()._actions if isinstance(a, argparse._SubParsersAction)
    )
    return {
        name: {o for action in sub._actions for o in action.option_strings}
        for name, sub in subparsers.choices.items()
    }


def test_the_readme_command_table_names_every_command_with_options_it_takes() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `digest (\w+)([^`]*)` \|", readme, re.MULTILINE)
    known = commands()
    assert sorted(name for name, _ in rows) == sorted(known)
    for name, usage in rows:
        for option in re.findall(r"--[\w-]+", usage):
            assert option in known[name], f"README: `digest {name}` has no option {option}"


def test_deployment_shows_the_dockerfile_and_compose_file_as_they_are() -> None:
    text = (REPO / "docs" / "deployment.md").read_text(encoding="utf-8")
    assert code_block(text, "The `Dockerfile`, as it is", "dockerfile") == (
        (REPO / "Dockerfile").read_text(encoding="utf-8")
    )
    assert code_block(text, "The `compose.yaml`", "yaml") == (
        (REPO / "compose.yaml").read_text(encoding="utf-8")
    )


def test_the_readmes_demo_output_is_what_the_demo_prints(tmp_path: Path, monkeypatch) -> None:
    """The quickstart's figures went stale once the ranking changed (top scores 0.36, not 0.35)."""
    import shutil
    import subprocess
    import sys

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("$ make demo\n", 1)[1].split("```", 1)[0].splitlines()[1:]
    when = re.search(r"digest run at (\S+)", block[0])
    assert when is not None
    for folder in ("config", "seeds", "templates"):
        shutil.copytree(REPO / folder, tmp_path / folder)
    done = subprocess.run(
        [sys.executable, "-m", "digest", "run", "--config", "config/digest.toml", "--now", when[1]],
        capture_output=True, text=True, cwd=tmp_path, check=True,
    )  # fmt: skip
    timing = re.compile(r"\(\d+\.\d\d s\)")
    assert [timing.sub("", line) for line in done.stdout.splitlines()] == [
        timing.sub("", line) for line in block
    ]
