"""What `digest validate` checks beyond the config's own rules: each source's values, the local
sources' paths, the libraries, the file channels' folders, the templates and the interests texts
the papers cannot match; and where every relative path of the config landed (they start from the
config file's folder)."""

from __future__ import annotations

import functools
import logging
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from digest.cli import language
from digest.config.checks import config_folder, exists
from digest.models import DigestError, Settings, SourceConfig, Subscriber, identity
from digest.state.engine import shown

log = logging.getLogger("digest")
# A text of fewer words is not judged by its words' share (a short list of rare terms is no
# language), and under KNOWN_SHARE of them known to the background it is in another language.
JUDGED, KNOWN_SHARE = 4, 1 / 2


def problems(settings: Settings) -> list[str]:
    """Every problem found, one line each naming the config file and the key."""
    from digest import render
    from digest.sources import SOURCES

    file = settings.path
    found: list[str] = []
    for i, source in enumerate(settings.sources):
        rule = getattr(SOURCES[source.kind], "check", None)
        problem = rule(source.options) if rule else None
        if problem:
            key = f"sources[{i}]" + (f".{problem[0]}" if problem[0] else "")
            found.append(f"{file}: {key}: {problem[1]}")
        if source.kind in ("seeds", "files"):
            found += _local_source(file, f"sources[{i}].path", source.kind, source.options["path"])
    libraries: set[str] = set()
    folders: set[str] = set()
    for sub in settings.subscribers:
        key = f"subscribers.{sub.name}"
        for i, liked in enumerate(sub.likes):
            ident = identity.arxiv_id(liked)
            if not ident or not identity.plausible_arxiv_id(ident):
                found.append(
                    f"{file}: {key}.like[{i}]: {liked!r} is not an arXiv id (e.g. '2501.01234')"
                )
        found += [f"{file}: {key}.{problem}" for problem in wordless(sub)]
        for warning in unread(sub):  # a warning: the config works, the text may not
            log.warning("%s: %s.%s", file, key, warning)
        found += library_problem(file, sub, libraries)
        for c, channel in enumerate(sub.channels):
            folder = str(channel.options.get("dir", ""))
            if channel.kind == "file" and folder not in folders:  # a default's: said once
                folders.add(folder)
                problem = _unwritable(folder)
                if problem:
                    where = channel.where or f"{key}.channels[{c}]"
                    found.append(f"{file}: {where}.dir: {problem}")
    try:
        env = render.make_environment(settings.templates)
        broken = render.unloadable(env)  # every one that cannot load, then a sample rendered
        found += [f"{file}: templates: {problem}" for problem in broken]
        if not broken:
            render.check_templates(env)
    except DigestError as exc:
        found.append(f"{file}: templates: {exc}")
    return list(dict.fromkeys(found))  # a shared folder or default fails once


def library_problem(file: str, sub: Subscriber, read: set[str], quiet: bool = False) -> list[str]:
    """The subscriber's library file read (and cached), unless one of `read`: why it cannot be,
    as a line naming the subscriber's key; quiet: its entries' warnings left to the run."""
    from digest import library

    if not sub.library_path or sub.library_path in read:
        return []
    read.add(sub.library_path)
    try:
        library.load(sub.library_path, quiet)
    except DigestError as exc:
        return [f"{file}: subscribers.{sub.name}.library: {exc}"]
    return []


def wordless(sub: Subscriber) -> list[str]:
    """The keywords, and the interests text when nothing else steers the profile, that hold no
    word the ranking reads (stop words, numbers, lone letters, phrase words alone): they would
    match nothing, silently."""
    from digest.ranking.tokens import analyze, no_rule, rule_words
    from digest.ranking.wishes import read

    why = (
        "holds no word the ranking can match (stop words, numbers, Roman numerals, units such"
        " as 'cm' or 'mol', lone letters, prefixes such as 'semi' or 'post' and words such as"
        " 'model' or 'code' alone are left out)"
    )
    found = [f"keywords[{i}]: {k!r} {why}" for i, k in enumerate(sub.profile.keywords)]
    found = [f for f, k in zip(found, sub.profile.keywords, strict=True) if not analyze(k)]
    rules = {"exclude": sub.profile.exclude, "alert_keywords": sub.alert_keywords}
    found += [
        f"{key}[{i}]: {w!r} is only stop words, which every paper holds: it is left out"
        for key, words in rules.items()
        for i, w in enumerate(words)
        if no_rule(rule_words(w))
    ]
    others = sub.profile.keywords or sub.library_path or sub.likes or sub.profile.authors
    if sub.profile.interests.strip() and not others and not analyze(read(sub.profile.interests)):
        found.append(
            f"interests: {why}; links, e-mail addresses, DOIs and arXiv ids are not read"
            + _liked(sub)
        )
    elif _refused(sub):
        words = _known(sub.profile.interests)[0]
        found.append(f"interests: none of its words ({_few(words)}) {_UNKNOWN}")
    return found


_UNKNOWN = (
    "is a word of the papers the ranking knows (its built-in background): is it written in"
    " another language than the papers? It matches none of them then; write it in theirs"
    " (English for arXiv)"
)


def unread(sub: Subscriber) -> list[str]:
    """What of the interests text the ranking does not read, when the rest of it is words (a
    warning): its arXiv ids (rank22 F1: "arXiv:2506.20115, ..." had been the word "arxiv"), and
    most of its words when it is in another language than the papers (rank22 F5: a text in
    Spanish had validated OK and scored 0 on every paper, for ever)."""
    words, known = _known(sub.profile.interests)
    found = []
    if words and _liked(sub):
        found.append(f"interests: its arXiv ids are not read as words{_liked(sub)}")
    if _foreign(sub) and not _refused(sub):
        unknown = [w for w in words if w not in known]
        share = f"only {len(known)} of its {len(words)} words ({_few(known)}; not {_few(unknown)})"
        share = share if known else f"none of its words ({_few(words)})"
        found.append(f"interests: {share} {_UNKNOWN}")
    from digest.ranking.negations import refusals

    # A refusal's words leave the interests (ranking/negations.py), but its papers still come
    # when other words bring them: a reader who wants them out says so in `exclude` (rank27 F1).
    found += [
        f"interests: {said!r} refuses papers: its words are left out of your interests, but"
        " papers are kept out only by exclude = [...]"
        for said in refusals(sub.profile.interests)
    ]
    return found


def _refused(sub: Subscriber) -> bool:
    """Whether the interests text is refused as another language's: strong evidence of it
    (language.STRONG), none of its words known, and nothing else in the profile the papers match.
    Weaker evidence is a warning (unread): one function word among unknown words, as in "Tiefes
    Lernen für Bilderkennung", could be a field's loanword, and a wrong refusal costs a reader
    (reg42 F1)."""
    strong = _foreign(sub) == language.STRONG
    return strong and not _known(sub.profile.interests)[1] and not _steered(sub)


def _steered(sub: Subscriber) -> bool:
    """Whether the profile has a part the papers can match beside its interests text."""
    keywords = any(_known(k)[1] for k in sub.profile.keywords)
    return bool(keywords or sub.library_path or sub.likes or sub.profile.authors)


def _liked(sub: Subscriber) -> str:
    """The hint for the arXiv ids an interests text names: `like` takes them."""
    from digest.ranking.wishes import arxiv_ids

    ids = arxiv_ids(sub.profile.interests)
    listed = ", ".join(f'"{i}"' for i in ids)
    return f"; to follow papers you like, list them as like = [{listed}]" if ids else ""


def _foreign(sub: Subscriber) -> int:
    """How strongly the interests text is in another language than the papers (language.other),
    0 if it has too few words to judge, KNOWN_SHARE of them or more known to the built-in
    background, or no background. Lacking English's stop words had made a text foreign too, and
    a terse list has none by nature: "Hinton LeCun Bengio Schmidhuber Sutskever", "LiFePO4
    NMC811 LLZO Li6PS5Cl" had been refused as another language, though they match papers
    (reg36 F4)."""
    from digest.ranking.wishes import read

    words, known = _known(sub.profile.interests)
    if not _judged(words, known):
        return 0
    return language.other(read(sub.profile.interests), len(known))


def _judged(words: Sequence[str], known: Sequence[str]) -> bool:
    """Whether a text's words are enough to judge its language by, and too few of them known."""
    return (
        len(words) >= JUDGED
        and len(known) < KNOWN_SHARE * len(words)
        and bool(language.vocabulary())
    )


@functools.lru_cache(maxsize=4096)  # asked three or four times per subscriber, on every run
def _known(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A text's words as the ranking reads them (no phrases), each once, and those of them the
    background knows; a compound is known when its parts are ("text-to-image")."""
    from digest.ranking.cases import is_cased
    from digest.ranking.tokens import analyze
    from digest.ranking.wishes import read

    # A word in mixed case ("GaN") is its small letters' too, which the background holds.
    words = tuple(t for t in dict.fromkeys(analyze(read(text))) if " " not in t and not is_cased(t))
    vocabulary = language.vocabulary()
    known = tuple(w for w in words if w in vocabulary or all(p in vocabulary for p in w.split("-")))
    return words, known


def _few(words: Sequence[str]) -> str:
    return ", ".join(repr(w) for w in words[:4]) + (", ..." if len(words) > 4 else "")


def bursts(settings: Settings) -> list[str]:
    """A line for each schedule that fires in bursts (more than crontab.BURST times within an
    hour), once per schedule, naming its first subscriber: a valid crontab, so a warning."""
    from digest.config import crontab

    firsts: dict[str, list[Subscriber]] = {}  # a [defaults] schedule is one line, not one each
    for sub in settings.subscribers:
        firsts.setdefault(sub.schedule, []).append(sub)
    lines = []
    for schedule, subs in firsts.items():
        names = [sub.name for sub in subs]
        if fired := crontab.burst(schedule, subs[0].timezone):
            others = f" (and {len(names) - 1} other subscriber(s))" if len(names) > 1 else ""
            fields = crontab.NICKNAMES.get(schedule.strip().lower(), schedule).split()
            once = " ".join(["0", *fields[1:]])
            lines.append(
                f"{settings.path}: subscribers.{names[0]}.schedule{others}: {schedule!r} fires "
                f"{fired} times within an hour, a digest or notice each time; for one at a set "
                f"time, give the minute, e.g. {once!r}"
            )
    return lines


def where_paths(settings: Settings, state: str = "", origin: str = "") -> list[str]:
    """The paths the config names, as resolved: relative ones start from its folder; the state
    is the one a run would use (`origin`: the variable that gave it, if not the config)."""
    folder = config_folder(settings.path)
    whose = (
        "the config file's folder"
        if folder == (os.path.dirname(settings.path) or ".")
        else ("the working directory (the config came through a pipe)")
    )
    lines = [f"  relative paths start from {whose}, {folder}{os.sep}:"]
    state = state or settings.state_path
    given = f" (from ${origin})" if origin.startswith("DIGEST_") else ""
    if origin == "DIGEST_STATE" and _other(state, settings.state_path):
        given = f" (from $DIGEST_STATE; not the config's {shown(settings.state_path)})"
    lines.append(f"  state: {shown(state)}{given}")  # a URL without its password
    for source in settings.sources:
        if "path" in source.options:
            empty = source.kind == "files" and _empty(source)
            quiet = " (no paper file in it yet: a run reads none)" if empty else ""
            lines.append(f"  source {source.name}: {source.options['path']}{quiet}")
    for sub in settings.subscribers:
        if sub.library_path:
            lines.append(f"  library of {sub.name}: {sub.library_path}")
        for channel in sub.channels:
            if channel.kind == "file":
                lines.append(f"  {sub.name}/{channel.name}: {channel.options['dir']}")
    if settings.templates:
        lines.append(f"  templates: {settings.templates}")
    return lines


def _other(state: str, config: str) -> bool:
    """Whether two states, each a file or a URL, are not one: a relative file is the working
    directory's."""
    if "://" in state or "://" in config:
        return state != config
    return os.path.abspath(state) != os.path.abspath(config)


def _local_source(file: str, key: str, kind: str, raw: object) -> list[str]:
    from digest.sources.files import SUFFIXES
    from digest.sources.seeds import is_device

    path = Path(str(raw))
    if not exists(path):
        return [f"{file}: {key}: no such file or folder {str(path)[:200]!r}"]
    if is_device(path):
        return [f"{file}: {key}: a device, not a file or folder {str(path)!r}"]
    suffixes = (".txt",) if kind == "seeds" else SUFFIXES
    try:
        found = not path.is_dir() or any(
            p.is_file() and p.name.endswith(suffixes) for p in path.iterdir()
        )
    except OSError as exc:
        return [f"{file}: {key}: cannot read folder {str(path)!r} ({exc.strerror or exc})"]
    if not found and kind == "seeds":
        wanted = " or ".join("*" + s for s in suffixes)
        return [f"{file}: {key}: no {wanted} files in folder {str(path)!r}"]
    return []  # a files source's drop folder is empty until its first delivery: a quiet source


def _empty(source: SourceConfig) -> bool:
    """Whether a files source's folder holds no paper file today."""
    from digest.sources.files import SUFFIXES

    path = Path(str(source.options["path"]))
    try:
        return path.is_dir() and not any(
            p.is_file() and p.name.endswith(SUFFIXES) for p in path.iterdir()
        )
    except OSError:
        return False


def _unwritable(folder: str) -> str:
    """Why files cannot be written in `folder` (created on first delivery), or ""."""
    path = Path(folder)
    try:  # a name the system cannot hold (too long) fails exists() itself
        while not path.exists() and path != path.parent:
            if path.is_symlink():  # an unmounted share: every delivery failed, "File exists"
                return f"{str(path)!r} is a link to {os.readlink(path)!r}, which is not there"
            path = path.parent
    except OSError as exc:
        return f"cannot create folder {folder!r} ({exc.strerror or exc})"
    if not path.is_dir():
        return f"cannot create folder {folder!r}: {str(path)!r} is not a folder"
    try:  # a real write, not os.access(): root passes that everywhere, a read-only mount too
        fd, probe = tempfile.mkstemp(dir=path, prefix=".digest-validate-")
    except OSError as exc:
        return f"cannot write in {str(path)!r} ({exc.strerror or exc})"
    os.close(fd)
    os.unlink(probe)
    return ""
