"""HTML in a feed's text as plain text: the markup publishers write (MathML, JATS, IEEE's,
HTML5) leaves no tag behind, a formula's TeX annotation is not read twice, and a superscript
stays one."""

from __future__ import annotations

import pytest

from digest.sources.markup import html_text


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        (
            'We measure <mover accent="true">x˙</mover><mspace width="0.2em"/> now',
            "We measure x˙ now",
        ),
        (
            '<semantics>α<annotation encoding="application/x-tex">\\alpha</annotation>'
            "</semantics> decay",
            "α decay",
        ),
        ("<mtable><mtr><mtd>a</mtd></mtr></mtable> and <mroot>x3</mroot>", "a and x3"),
        (
            'Learning <inline-formula><tex-math notation="LaTeX">ℓ₁</tex-math>'
            "</inline-formula>-Sparse",
            "Learning ℓ₁-Sparse",
        ),
        (
            '<sec><italic>in vivo</italic> <xref ref-type="bibr" rid="b1">1</xref>'
            " <bold>T</bold></sec>",
            "in vivo 1 T",
        ),
        (
            '<picture><source srcset="a.webp"></picture>Posted <time datetime="2026-03-02">March'
            ' 2</time><noscript>Enable JS</noscript><svg viewBox="0 0 1 1"><path d="M0"/></svg>.',
            "Posted March 2.",
        ),
    ],
)
def test_publishers_markup_leaves_no_tag(markup: str, text: str) -> None:
    assert html_text(markup) == text


def test_a_superscript_stays_raised_and_a_subscript_joins_its_word() -> None:
    """10<sup>6</sup> cells had become "106 cells", another number."""
    assert html_text("10<sup>6</sup> cells at 10<sup>−9</sup> M") == "10⁶ cells at 10⁻⁹ M"
    assert html_text("Fe<sup>3+</sup> and x<sup>T</sup>y") == "Fe³⁺ and xTy"
    # Letters stay inline, as before: "5th" is the title a stored copy was known by.
    assert html_text("The 5<sup>th</sup> workshop") == "The 5th workshop"
    assert html_text("MoS<sub>2</sub> films") == "MoS2 films"


@pytest.mark.parametrize(
    "text",
    [
        "if x<y then a<b and c>d.",
        "We compute <psi|H|psi> here",
        "<n-gram> counts",
        # Words an abstract puts in angle brackets that are also elements: hid or ate the text.
        "We fill a prompt <template> with slots and train it.",
        "the <label> token, the <time> step and <noscript> mode",
        "an <svg> file",
    ],
)
def test_a_less_than_sign_that_opens_no_known_element_is_text(text: str) -> None:
    assert html_text(text) == text
