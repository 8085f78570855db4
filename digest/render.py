"""Turns a Digest into a Message (subject, text, html) through Jinja2 templates.

Owns the template environment, the per-paper context, abstract snippets and link safety.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol
from urllib.parse import urlsplit

import jinja2

from digest.models import ConfigError, Digest, Entry, Held, Message, Paper, Scored, identity
from digest.models.characters import BIDI, C0_BUT_TAB_NEWLINE, C1
from digest.snippets import plain, short_authors, snippet, tidy

BUILTIN_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

SUBJECT_TEMPLATE = "digest.subject.txt"
TEXT_TEMPLATE = "digest.txt"
HTML_TEMPLATE = "digest.html"
ALERT_TEMPLATES = ("alert.subject.txt", "alert.txt", "alert.html")
NOTICE_TEMPLATES = ("notice.subject.txt", "notice.txt", "notice.html")
# C0 controls but tab and newline, DEL, C1 controls: a terminal or a text mail client obeys ESC
# and BEL, so no text a message shows carries them, whatever a title or a template holds. And the
# bidi embeddings, overrides and isolates: one left open in a venue turns digest's own text
# after it around (the score, the id). Right-to-left text itself needs none of them.
_CONTROL_CHARS = C0_BUT_TAB_NEWLINE + C1 + BIDI
# No link holds those, whitespace, or a character XML cannot (a lone surrogate, U+FFFE): it would
# reverse the text around it, or break the feed and the Matrix HTML.
_UNLINKABLE = re.compile(rf"[\s{_CONTROL_CHARS}\ud800-\udfff\ufffe\uffff]")


class Links(Protocol):
    """What a message links to on the web face ([web]); the pipeline hands one per subscriber
    (web/tokens.py), and without [web] there is none: ids, no links."""

    def vote(self, paper_id: str, vote: str) -> str: ...
    def unsubscribe(self) -> str: ...
    def archive(self) -> str: ...
    def digest_page(self, period: str) -> str: ...


def make_environment(folder: str | None = None) -> jinja2.Environment:
    """Templates from `folder` first, then the built-in ones: override one, keep the rest."""
    loaders: list[jinja2.BaseLoader] = []
    if folder:
        path = Path(folder)
        if not path.is_dir():
            raise ConfigError(f"templates folder not found: {folder}")
        loaders.append(jinja2.FileSystemLoader(str(path)))
    loaders.append(jinja2.FileSystemLoader(str(BUILTIN_TEMPLATES)))
    return jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        # Titles and abstracts come from the internet: HTML must escape them, plain text must not.
        autoescape=jinja2.select_autoescape(["html", "htm"], default_for_string=False),
        # A typo in a user's template should fail the run, not send a digest with holes in it.
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def shown_name(name: str) -> str:
    """A subscriber's name as every message and page shows it: one line, without the controls
    plain() takes out. Only the subject and the text part had been cleaned: the HTML's <title>
    and <h1> kept a name's U+202E, and Chromium showed "evil" as "live" (web2 F2)."""
    return " ".join(plain(name).split())


def render_digest(digest: Digest, env: jinja2.Environment, links: Links | None = None) -> Message:
    """A digest: its held alerts first, in a section of their own, then its ranked picks; the
    ranks run on across both, so a Matrix reply or a Slack button names one paper."""
    context = _context(digest, links)
    name = context["subscriber"]
    subject = _render(env, SUBJECT_TEMPLATE, context)
    count, held = len(context["picks"]), len(context["held"])
    said = [_counted(count, "new paper")] if count or not held else []
    said = ([_counted(held, "held alert")] if held else []) + said
    return Message(
        # One line whatever the template or the subscriber name holds: no header injection.
        subject=" ".join(plain(subject).split()),
        text=plain(_render(env, TEXT_TEMPLATE, context)),
        html=inline_css(_render(env, HTML_TEMPLATE, context)),
        heading=f"Paper digest for {name} — {context['day']}",
        entries=_entries(context["held"], context["picks"], context["held_left"]),
        footer=f"digest · {', '.join(said)} · ranked by TF-IDF similarity to {name}'s interests",
        view_url=context["view_url"],
        unsubscribe_url=context["unsubscribe_url"],
    )


def render_alert(
    subscriber: str,
    day: date,
    scored: Scored,
    reasons: Sequence[str],
    env: jinja2.Environment,
    links: Links | None = None,
) -> Message:
    """One paper that could not wait for the digest, and why it could not."""
    item = _item(1, scored, links)
    reasons = [" ".join(plain(r).split()) for r in reasons]  # they quote the paper's authors
    name = shown_name(subscriber)
    context = {"subscriber": name, "day": day.isoformat(), "item": item, "reasons": reasons}
    context.update(_page_links(links, None))
    return _message(
        env,
        ALERT_TEMPLATES,
        context,
        heading=f"Paper alert for {name}",
        entries=(_entry(item),),
        footer="why now: " + "; ".join(reasons),
        unsubscribe_url=context["unsubscribe_url"],
    )


def render_notice(
    subscriber: str,
    day: date,
    quiet: str,
    line: str,
    env: jinja2.Environment,
    links: Links | None = None,
) -> Message:
    """A quiet period's one line: which quiet it is (no new papers, none matched, a source down);
    with links, the archive and the one-click unsubscribe, as in a digest."""
    # The line may quote a source's error, and so its server's words.
    context = {
        "subscriber": shown_name(subscriber),
        "day": day.isoformat(),
        "quiet": quiet,
        "line": plain(line),
    }
    context |= _page_links(links, None)
    return _message(env, NOTICE_TEMPLATES, context, unsubscribe_url=context["unsubscribe_url"])


def _message(
    env: jinja2.Environment, names: Sequence[str], context: dict[str, Any], **chat: Any
) -> Message:
    subject, text, html = (_render(env, name, context) for name in names)
    subject = " ".join(plain(subject).split())
    return Message(subject=subject, text=plain(text), html=inline_css(html), **chat)


def inline_css(html: str) -> str:
    """Move <style> rules into style attributes: many mail clients drop <style> blocks.

    @media rules stay in a <style> block for the clients that honour them; nothing is fetched.
    """
    import css_inline

    inliner = css_inline.CSSInliner(load_remote_stylesheets=False, keep_at_rules=True)
    try:
        return inliner.inline(html)
    except ValueError as exc:  # css_inline's InlineError: CSS it cannot parse
        raise ConfigError(f"template {HTML_TEMPLATE}: cannot inline its CSS ({exc})") from None


def _counted(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _entries(
    held: list[dict[str, Any]], picks: list[dict[str, Any]], left: int = 0
) -> tuple[Entry, ...]:
    """The chat channels' papers; with held alerts, each section opens with a heading."""
    if not held:
        return tuple(_entry(item) for item in picks)
    why = f"{_counted(len(held), 'paper')} that matched your alert rules, held for this digest"
    why += f" (the best; {left} more left out)" if left else ""
    best = ", best match first" if len(picks) > 1 else ""
    ranked = f"Ranked picks: {_counted(len(picks), 'new paper')}{best}"
    opens = {held[0]["rank"]: f"Held alerts: {why}", len(held) + 1: ranked}  # by rank
    return tuple(_entry(item, opens.get(item["rank"], "")) for item in held + picks)


# The item's values an Entry takes under the same names.
_ENTRY_FIELDS = "rank title url code_url authors venue score snippet pdf_url up_url down_url"


def _entry(item: dict[str, Any], section: str = "") -> Entry:
    # A held alert's reasons go before its own "closest to": they are why it is here.
    alert = ["alert: " + "; ".join(item["reasons"])] if item["reasons"] else []
    because = "; ".join([*alert, *([item["because"]] if item["because"] else [])])
    same = {name: item[name] for name in _ENTRY_FIELDS.split()}
    terms = tuple(item["terms"])
    return Entry(**same, terms=terms, because=because, paper_id=item["id"], section=section)


def check_templates(env: jinja2.Environment) -> None:
    """Render a sample digest (one paper, then none) so a broken template fails before any run."""
    paper = Paper(
        id="check",
        title="A sample paper",
        abstract="A sample abstract. It has two sentences.",
        authors=("A. Author",),
        venue="Venue",
        url="https://example.org/paper",
        code_url="https://example.org/code",
    )
    item = Scored(paper, 0.5, ("sample",), "closest to: another paper")
    why, made = ["score 0.50 is at or above your alert threshold 0.40"], datetime(2000, 1, 1)
    held = (Held(item, tuple(why)),)
    # With links and without: a template must work whether [web] is set or not; with held
    # alerts (some left out), picks, both or neither.
    for links in (None, _SampleLinks()):
        for items, kept in (((item,), ()), ((), ()), ((item,), held), ((), held)):
            left = len(kept) * (1 + len(items))
            sample = Digest(
                "check", "2000-01-01T00:00:00+00:00", made.date(), items, made, kept, left
            )
            render_digest(sample, env, links)
        render_alert("check", made.date(), item, why, env, links)
    day = date(2000, 1, 1)
    render_notice("check", day, "no new papers", "No new papers since the last digest.", env)


class _SampleLinks:
    def vote(self, paper_id: str, vote: str) -> str:
        return f"https://example.org/r/{vote}"

    def unsubscribe(self) -> str:
        return "https://example.org/u/x"

    def archive(self) -> str:
        return "https://example.org/a/x/"

    def digest_page(self, period: str) -> str:
        return "https://example.org/a/x/d/p"


def _context(digest: Digest, links: Links | None = None) -> dict[str, Any]:
    """`held` (the held alerts, each with its `reasons`) and `picks`, ranked on from them;
    `items` is both, for a user's template written before held alerts had a section."""
    held = [_item(n, h.scored, links, h.reasons) for n, h in enumerate(digest.held, start=1)]
    picks = [_item(n, s, links) for n, s in enumerate(digest.items, start=len(held) + 1)]
    return {
        "subscriber": shown_name(digest.subscriber),
        "day": digest.day.isoformat(),
        "period": digest.period,
        "count": len(held) + len(picks),
        "items": held + picks,
        "held": held,
        "held_left": digest.held_left,  # held alerts past the most a digest carries, left out
        "picks": picks,
        **_page_links(links, digest.period),
    }


def _page_links(links: Links | None, period: str | None) -> dict[str, str]:
    """view_url (this digest in the browser), archive_url and unsubscribe_url, "" without [web]."""
    if links is None:
        return {"view_url": "", "archive_url": "", "unsubscribe_url": ""}
    return {
        "view_url": links.digest_page(period) if period else "",
        "archive_url": links.archive(),
        "unsubscribe_url": links.unsubscribe(),
    }


def pdf_url(paper: Paper) -> str:
    """The PDF's address where one is known: arXiv's, from the paper's arXiv id."""
    for value in (paper.id, *paper.aliases, paper.url):
        found = identity.arxiv_id(value) if value else None
        if found:
            return f"https://arxiv.org/pdf/{found}"
    return ""


def _item(
    rank: int, scored: Scored, links: Links | None = None, reasons: Sequence[str] = ()
) -> dict[str, Any]:
    paper = scored.paper
    said = [" ".join(plain(r).split()) for r in reasons]  # they quote paper text
    # The ranking's own clauses but those a held alert's reasons say ("by X, whom you follow").
    because = [c for c in " ".join(plain(scored.because).split()).split("; ") if c not in said]
    return {
        "reasons": said,
        "rank": rank,
        "id": paper.id,
        "pdf_url": pdf_url(paper),
        "up_url": links.vote(paper.id, "up") if links else "",
        "down_url": links.vote(paper.id, "down") if links else "",
        "title": tidy(paper.title),
        "venue": " ".join(plain(paper.venue).split()),
        "score": f"{scored.score:.2f}".replace("-0.00", "0.00"),  # a hair below zero is 0
        "terms": [plain(t) for t in scored.terms],
        "because": "; ".join(c for c in because if c),
        "snippet": snippet(paper.abstract),
        "url": _safe_url(paper.url),
        "code_url": _safe_url(paper.code_url),
        "authors": short_authors(paper.authors),
    }


def unloadable(env: jinja2.Environment) -> list[str]:
    """Why each of the nine templates that cannot be loaded cannot (`validate` names them all)."""
    names = (SUBJECT_TEMPLATE, TEXT_TEMPLATE, HTML_TEMPLATE, *ALERT_TEMPLATES, *NOTICE_TEMPLATES)
    found = []
    for name in names:
        try:
            _loaded(env, name)
        except ConfigError as exc:
            found.append(str(exc))
    return found


def _loaded(env: jinja2.Environment, name: str) -> jinja2.Template:
    try:
        return env.get_template(name)
    except jinja2.TemplateNotFound as exc:
        raise ConfigError(f"template {name} not found (looked in {_search_path(env)})") from exc
    except jinja2.TemplateSyntaxError as exc:
        where = exc.filename or name
        raise ConfigError(f"template {where}, line {exc.lineno}: {_one_line(exc)}") from exc
    except (UnicodeDecodeError, OSError) as exc:
        raise ConfigError(
            f"template {name} cannot be read as UTF-8 text: {_one_line(exc)}"
        ) from exc


def _render(env: jinja2.Environment, name: str, context: dict[str, Any]) -> str:
    template = _loaded(env, name)
    try:
        return template.render(context)
    # Not only Jinja's own errors: a user's template can divide by zero or recurse for ever.
    except (
        jinja2.TemplateError,
        ArithmeticError,
        LookupError,
        TypeError,
        ValueError,
        RecursionError,
        AttributeError,
    ) as exc:
        where = template.filename or name
        line = _template_line(exc.__traceback__, where)
        at = f", line {line}" if line else ""
        raise ConfigError(f"template {where}{at}: {_one_line(exc)}") from exc


def _template_line(tb: TracebackType | None, filename: str) -> int | None:
    # Jinja rewrites the traceback so that frames inside a template carry its file name and line.
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _one_line(exc: Exception) -> str:
    return " ".join((getattr(exc, "message", None) or str(exc)).split())


def _search_path(env: jinja2.Environment) -> str:
    loader = env.loader
    loaders = loader.loaders if isinstance(loader, jinja2.ChoiceLoader) else [loader]
    folders = [
        p for ld in loaders if isinstance(ld, jinja2.FileSystemLoader) for p in ld.searchpath
    ]
    return ", ".join(str(f) for f in folders)


def _safe_url(url: str) -> str:
    """The URL if it is a plain http(s) link to the host it shows, else "": a `javascript:` URL
    is never a link, nor one with user info (`https://arxiv.org@evil.example/`)."""
    url = url.strip()
    if not url or _UNLINKABLE.search(url):
        return ""
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return ""
    # A reader checks an address from the left, a browser goes to the host after the "@", and
    # reads a "\\" as a "/" (`https://evil.example\\.arxiv.org/`): the address a text shows
    # would name a host the link does not open.
    return "" if "@" in parts.netloc or "\\" in parts.netloc else url
