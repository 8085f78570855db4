"""Whether a bare YYMM.NNNNN in a reader's interests is a quantity or an arXiv id: a "$" before
it is a price's sign only where it opens, not where it closes a title's math."""

from __future__ import annotations

import pytest

from digest.ranking.wishes import arxiv_ids

# reg44 F2: every "$" from the start of the text had been counted, so one price or escaped "\$"
# anywhere earlier made the "$" closing a later title's math a price's, and its id a number.
_EARLIER = [
    "under $5 per hour\n",
    "budget $5, liked: ",
    "costs $5 per hour; ",
    "a $100k budget, ",
    "PUSA V1.0: Surpassing Wan-I2V with $500 Training Cost by Vectorized Timestep Adaptation"
    " 2507.16116\n",
    "PUSA V1.0: Surpassing Wan-I2V with $500 Training Cost by Vectorized Timestep Adaptation"
    " 2507.16116; ",
    "Training with \\$100 Budget 2508.17202, ",
    "A $τ$-$DM relation for FRB hosts? 2508.13317\n",
    "A $τ$-$DM relation for FRB hosts? 2508.13317; ",
]
_TITLES = [
    "Signatures of Carrier Screening Effects on Electron-Phonon Coupling in MoS$_2$",
    "Little Red Dots at $3\\lesssim z\\lesssim 6$",
    "Quasars at $5.71 \\le z \\le 7.02$",
    "The information content of $\\langle M_\\mathrm{ap}^4 \\rangle $",
    "The $2x$ gain of $x$ and $ y$",
]


@pytest.mark.parametrize("earlier", _EARLIER)
@pytest.mark.parametrize("title", _TITLES)
def test_an_id_after_a_title_s_math_is_an_id_whatever_dollar_came_before(
    earlier: str, title: str
) -> None:
    assert arxiv_ids(f"{earlier}{title} 2503.03363")[-1] == "2503.03363"


@pytest.mark.parametrize(
    "text",
    [
        "in $x$ costs $ 1203.4567",
        "$5$ and $ 1203.4567",
        "MoS$_2$ films cost $ 1203.4567 per gram",
        "A $τ$-$DM relation\ncosts $ 1203.4567",
        "costs \\$ 1203.4567",
        "costs US$ 1203.4567",
        "I pay $ 2503.03363",
    ],
)
def test_a_price_s_sign_after_math_or_on_a_line_of_its_own_stays_a_price(text: str) -> None:
    assert arxiv_ids(text) == []


@pytest.mark.parametrize("title", _TITLES)
@pytest.mark.parametrize("line_end", ["", " ", "\r", " = ", " €"])
def test_an_id_alone_on_the_line_after_a_title_s_math_is_an_id(title: str, line_end: str) -> None:
    """reg45 F4: "MoS$_2$\\n2503.03363" had lost its id, the "$" ending the line read as a price's
    sign before the number ("$" matches before a newline that ends the searched span)."""
    text = f"{title}{line_end}\n2503.03363 and 2504.01040"
    assert arxiv_ids(text) == ["2503.03363", "2504.01040"]


@pytest.mark.parametrize(
    "text",
    ["MoS$_2$\nE = 1203.4567", "MoS$_2$\ncosts $ 1203.4567", "MoS$_2$\n1203.4567 keV"],
)
def test_a_number_its_own_line_measures_stays_a_quantity(text: str) -> None:
    assert arxiv_ids(text) == []
