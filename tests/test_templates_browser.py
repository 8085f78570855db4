"""The built-in HTML templates as readers see them: in headless Chromium at a phone's 390 px and a
desktop's 1200 px, no page scrolls sideways, not even with a long unbroken title, author list,
link or held alert's reason; every text colour meets WCAG AA contrast (4.5:1) on its background;
the quiet-day notice is laid out like the digest. Layout is measured (scrollWidth), never compared
by pixels."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from support_browser import layout_at, serve_pages

from digest import render
from digest.models import Digest, Held, Paper, Scored

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
DAY = date(2026, 11, 30)
UNBROKEN = "Supercalifragilistic" * 12  # 240 characters, no space: a title a phone cannot fit


def pages() -> dict[str, str]:
    """Every built-in HTML template, rendered with its worst case: long unbroken words."""
    env = render.make_environment()
    long = Paper(
        id="2611.00001",
        title=f"{UNBROKEN} for federated learning",
        abstract=f"We study https://example.org/{'a' * 200} and {UNBROKEN}. It works.",
        authors=tuple(f"Author{'x' * 40}{n}" for n in range(6)),
        venue="arXiv " + "cs.LG" * 30,
        url="https://arxiv.org/abs/2611.00001",
        code_url="https://github.com/" + "o" * 120,
    )
    short = Paper(id="2611.00002", title="A short title", abstract="Short. Abstract.")
    items = (Scored(long, 0.9, ("federated", UNBROKEN[:60])), Scored(short, 0.5))
    made = datetime(2026, 11, 30, 8, tzinfo=UTC)
    digest = Digest("ana", "2026-11-30T08:00:00+00:00", DAY, items, made)
    quiet = Digest("ana", "2026-11-30T08:00:00+00:00", DAY, (), made)
    # Held alerts ahead of the picks, a reason quoting an unbroken author name.
    why = (f"by {UNBROKEN}, whom you follow", "held: the daily cap of 5 alerts was reached")
    held = Digest("ana", "2026-11-30T08:00:00+00:00", DAY, items[1:], made, (Held(items[0], why),))
    return {
        "/digest": render.render_digest(digest, env).html,
        "/digest-held": render.render_digest(held, env).html,
        "/digest-empty": render.render_digest(quiet, env).html,
        "/alert": render.render_alert("ana", DAY, items[0], ["score 0.90 is high"], env).html,
        "/notice": render.render_notice(
            "ana", DAY, "no new papers", "No new papers since the last digest.", env
        ).html,
    }


@pytest.mark.parametrize("width", [390, 1200])
@pytest.mark.parametrize("path", ["/digest", "/digest-held", "/digest-empty", "/alert", "/notice"])
def test_no_page_scrolls_sideways(browser_page, tmp_path: Path, path: str, width: int) -> None:
    with serve_pages(pages()) as base:
        browser_page.goto(base + path)
        layout = layout_at(browser_page, width, screenshot=tmp_path / f"{path[1:]}-{width}.png")
    assert not layout.overflows, str(layout)


# Every element with text, its colour and the first opaque background behind it.
_COLOURS_JS = """() => {
  const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const found = [];
  for (const el of document.body.querySelectorAll('*')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    let bg = el, back = [255, 255, 255];
    while (bg) {
      const c = parse(getComputedStyle(bg).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0)) { back = c.slice(0, 3); break; }
      bg = bg.parentElement;
    }
    const style = getComputedStyle(el);
    found.push({tag: el.tagName.toLowerCase(), text: el.textContent.trim().slice(0, 40),
                color: parse(style.color).slice(0, 3), background: back});
  }
  return found;
}"""


def luminance(rgb: list[float]) -> float:
    """WCAG 2.x relative luminance of an sRGB colour (0-255 channels)."""
    linear = [
        c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(fore: list[float], back: list[float]) -> float:
    light, dark = sorted((luminance(fore), luminance(back)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_contrast_formula_matches_wcags_reference_values() -> None:
    assert contrast([0, 0, 0], [255, 255, 255]) == pytest.approx(21.0)
    old_footer = [0x8B, 0x94, 0x9E]
    assert contrast(old_footer, [255, 255, 255]) == pytest.approx(3.08, abs=0.01)
    assert contrast([0x59, 0x63, 0x6E], [255, 255, 255]) == pytest.approx(6.11, abs=0.01)


@pytest.mark.parametrize("path", ["/digest", "/digest-held", "/digest-empty", "/alert", "/notice"])
def test_every_text_meets_wcag_aa_contrast(browser_page, path: str) -> None:
    with serve_pages(pages()) as base:
        browser_page.goto(base + path)
        texts = browser_page.evaluate(_COLOURS_JS)
    assert texts
    poor = [
        (t["tag"], t["text"], round(contrast(t["color"], t["background"]), 2))
        for t in texts
        if contrast(t["color"], t["background"]) < 4.5
    ]
    assert not poor, poor


def test_every_colour_written_in_a_template_meets_aa_on_white() -> None:
    """Without a browser too: each text colour the templates set, against their white card."""
    for template in sorted(TEMPLATES.glob("*.html")):
        for hex_colour in re.findall(r"(?<![-\w])color:\s*#([0-9a-fA-F]{6})", template.read_text()):
            rgb = [int(hex_colour[i : i + 2], 16) for i in (0, 2, 4)]
            assert contrast(rgb, [255, 255, 255]) >= 4.5, (template.name, hex_colour)


def test_the_quiet_day_notice_is_laid_out_like_the_digest() -> None:
    html = pages()["/notice"]
    digest = pages()["/digest-empty"]
    card = re.search(r'<div style="([^"]+)"', digest)
    assert card and f'<div style="{card.group(1)}"' in html  # the same white card
    assert '<meta name="viewport"' in html and "<h1" in html
    assert "No new papers since the last digest." in html


# Where each of two words of one element's text is drawn, left edge in px.
_WORDS_AT_JS = """([selector, words]) => {
  const el = [...document.querySelectorAll(selector)].find(e => e.textContent.includes(words[0]));
  const range = document.createRange();
  const at = {};
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const word of words) {
      const i = node.textContent.indexOf(word);
      if (i < 0) continue;
      range.setStart(node, i);
      range.setEnd(node, i + word.length);
      at[word] = range.getBoundingClientRect().left;
    }
  }
  return at;
}"""


@pytest.mark.parametrize("venue", ["\u202eNeurIPS left open", "כנס \u202e2026", "\u2067NeurIPS"])
def test_a_venue_never_turns_the_score_and_id_after_it_around(browser_page, venue: str) -> None:
    paper = Paper(id="2611.00007", title="T \u202eitle", abstract="A. B.", venue=venue)
    env = render.make_environment()
    alert = render.render_alert("ana", DAY, Scored(paper, 0.9), ["a keyword"], env).html
    with serve_pages({"/alert": alert}) as base:
        browser_page.goto(base + "/alert")
        at = browser_page.evaluate(_WORDS_AT_JS, ["p", ["score", "2611.00007"]])
    assert at["score"] < at["2611.00007"]  # read left to right, as digest wrote it
