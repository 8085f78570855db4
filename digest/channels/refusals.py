"""What an SMTP relay said of a message's recipients: those refused at RCPT and why, in the
outbox's words (a 4xx or too many for one transaction tried again, a 5xx dead, a 421 at RCPT),
and the owed list that keeps who took it (TOOK)."""

from __future__ import annotations

import re
import smtplib

from digest.channels.transport import Owed

# In the outbox's list of the addresses owed a message, the mark of one that took it: no address
# of `to` starts so (getaddresses reads "took:" as the name of a group).
TOOK = "took:"
Refusals = dict[str, tuple[int, bytes]]  # address -> the relay's (code, words) at its RCPT


def partly(message_id: str, rcpts: list[str], refused: Refusals, took: set[str]) -> Owed:
    """Some recipients have the message, these were refused at RCPT: a 4xx (or too many for one
    transaction) is tried again later, a 5xx kills the delivery (for `digest retry` once the
    address is fixed, or `--drop`); either way only to those still owed, with the same
    Message-ID. The owed list the outbox keeps holds those that took it too (TOOK)."""
    took = took | {a.lower() for a in rcpts if a not in refused}
    owed = tuple(a for a in rcpts if a in refused) + tuple(TOOK + a for a in sorted(took))
    went = f"email: {message_id} went to {len(rcpts) - len(refused)} of {len(rcpts)}"
    later = {a: r for a, r in refused.items() if 400 <= r[0] < 500 or too_many(r)}
    for_good = {a: r for a, r in refused.items() if a not in later}
    if later:
        # A 5xx beside them is tried once more with them, and kills the row then if it stays.
        also = f"; refused: {listed(for_good)}" if for_good else ""
        said = f"{went} recipient(s); refused for now: {listed(later)}; sent to them alone later"
        return Owed(said + also, retryable=True, owed=owed)
    return Owed(f"{went} recipient(s); refused: {listed(refused)}", retryable=False, owed=owed)


def too_many(refusal: tuple[int, bytes]) -> bool:
    """Refused for the transaction's number of recipients, not for the address: a 452 of no
    other enhanced code, or X.5.3 (RFC 3463; a 552 5.5.3 too, as RFC 5321 §4.5.3.1.10 says)."""
    code, said = refusal
    enhanced = re.match(rb"\s*[245]\.(\d{1,3}\.\d{1,3})\b", said)
    return code >= 400 and (enhanced.group(1) == b"5.3" if enhanced else code == 452)


def closed_at_rcpt(refused: Refusals) -> str:
    """The words for a 421 at RCPT, or "": smtplib stops there and closes, so the recipients
    after it were never asked, and those it accepted before it were never sent the message."""
    closed = next((a for a, (code, _) in refused.items() if code == 421), "")
    if not closed:
        return ""
    code, said = refused[closed]
    before = {a: r for a, r in refused.items() if a != closed}
    also = f"; refused before it: {listed(before)}" if before else ""
    return (
        f"email: the SMTP server closed the connection at RCPT for {closed} ({code}"
        f" {text(said)}): the message went to no one, not even the recipients it had accepted"
        f" before{also}"
    )


def listed(refused: Refusals) -> str:
    """Refused recipients as "a@x: 550 no such user; b@y: 450 greylisted"."""
    return "; ".join(f"{a}: {c} {text(m)}" for a, (c, m) in refused.items())


SAID = 4000  # characters of a reply kept here; the outbox cuts it once the password is blotted


def text(raw: bytes | str) -> str:
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return " ".join(text.split())[:SAID]


def said(exc: smtplib.SMTPResponseException) -> str:
    return f"{exc.smtp_code} {text(exc.smtp_error)}"
