"""digest.channels.file: a delivery becomes <dir>/<day>/<subscriber>.eml and .html on disk."""

from __future__ import annotations

import contextlib
import dataclasses
import email
import email.policy
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from digest.channels import CHANNELS
from digest.channels.file import FileChannel
from digest.models import ChannelConfig, Delivery, DeliveryError, Message, Settings, safe_name

DAY = date(2026, 11, 30)
MESSAGE = Message(
    subject="Digest für Zoë — 论文: 2 papers",
    text="1. Föderiertes Lernen\n   score 0.46\n\n2. 差分隐私\n",
    html="<!DOCTYPE html>\n<p>1. Föderiertes Lernen</p>\n<p>2. 差分隐私</p>\n",
)


def make_channel(options: dict[str, Any], smtp: dict[str, Any] | None = None) -> FileChannel:
    config = ChannelConfig(kind="file", name="file", options=options)
    settings = Settings(path="digest.toml", sources=(), subscribers=(), smtp=smtp or {})
    return FileChannel(config, settings)


def make_delivery(channel: FileChannel, subscriber: str = "alice") -> Delivery:
    return Delivery(
        id=7,
        subscriber=subscriber,
        period="2026-11-30T08:00:00+01:00",
        day=DAY,
        channel=channel.config,
        message=MESSAGE,
    )


def parse(path: Path) -> EmailMessage:
    parsed = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def test_writes_eml_and_html_under_dir_and_day(tmp_path: Path) -> None:
    channel = make_channel({"dir": str(tmp_path / "out")})
    receipt = channel.send(make_delivery(channel))
    folder = tmp_path / "out" / "2026-11-30"
    assert receipt.channel == "file"
    assert receipt.detail == str(folder / "alice.eml")
    assert sorted(p.name for p in folder.iterdir()) == ["alice.eml", "alice.html"]
    assert (folder / "alice.html").read_text(encoding="utf-8") == MESSAGE.html


def test_dir_defaults_to_out_in_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    channel = make_channel({})
    channel.send(make_delivery(channel))
    assert (tmp_path / "out" / "2026-11-30" / "alice.eml").is_file()


def test_eml_is_a_multipart_alternative_with_text_then_html(tmp_path: Path) -> None:
    channel = make_channel({"dir": str(tmp_path)})
    delivery = make_delivery(channel)
    parsed = parse(Path(channel.send(delivery).detail))
    assert parsed.get_content_type() == "multipart/alternative"
    text, html = list(parsed.iter_parts())
    assert text.get_content_type() == "text/plain"
    assert html.get_content_type() == "text/html"
    assert text.get_content().replace("\r\n", "\n") == MESSAGE.text
    assert html.get_content().replace("\r\n", "\n") == MESSAGE.html


def test_eml_headers(tmp_path: Path) -> None:
    channel = make_channel(
        {"dir": str(tmp_path), "to": ["alice@example.org", "lab@example.org"]},
        smtp={"from": "Paper digest <digest@example.org>"},
    )
    delivery = make_delivery(channel)
    raw = Path(channel.send(delivery).detail).read_bytes()
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert parsed["Subject"] == "Digest für Zoë — 论文: 2 papers"
    assert b"Zo\xc3\xab" not in raw  # the subject travels as an encoded word, not raw UTF-8
    assert parsed["From"] == "Paper digest <digest@example.org>"
    assert parsed["To"] == "alice@example.org, lab@example.org"
    assert parsed["Message-ID"] == f"<{delivery.key}@digest.local>"
    assert parsed["Date"].datetime is not None
    assert b"\r\n" in raw


def test_a_name_beyond_ascii_is_encoded_apart_from_its_address(tmp_path: Path) -> None:
    """Encoded whole, "Jürgen Müller <juergen@example.org>, plain@..." lost the first address."""
    to = ["Jürgen Müller <juergen@example.org>", "plain@example.org"]
    channel = make_channel({"dir": str(tmp_path), "to": to})
    raw = Path(channel.send(make_delivery(channel)).detail).read_bytes()
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert [a.addr_spec for a in parsed["To"].addresses] == [
        "juergen@example.org",
        "plain@example.org",
    ]
    assert parsed["To"].addresses[0].display_name == "Jürgen Müller"


def test_default_from_and_a_single_to_string(tmp_path: Path) -> None:
    channel = make_channel({"dir": str(tmp_path), "to": "alice@example.org"})
    parsed = parse(Path(channel.send(make_delivery(channel)).detail))
    assert parsed["From"] == "digest <digest@localhost>"
    assert parsed["To"] == "alice@example.org"


def test_no_to_header_without_a_to_option(tmp_path: Path) -> None:
    channel = make_channel({"dir": str(tmp_path)})
    parsed = parse(Path(channel.send(make_delivery(channel)).detail))
    assert parsed["To"] is None


def test_a_hostile_subscriber_name_stays_inside_dir(tmp_path: Path) -> None:
    out = tmp_path / "nest" / "out"
    channel = make_channel({"dir": str(out)})
    receipt = channel.send(make_delivery(channel, subscriber="../../etc/x"))
    written = Path(receipt.detail).resolve()
    assert written.parent == (out / "2026-11-30").resolve()
    assert not written.name.startswith(".")
    everything = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    assert everything == [
        "nest",
        "nest/out",
        "nest/out/2026-11-30",
        f"nest/out/2026-11-30/{written.stem}.eml",
        f"nest/out/2026-11-30/{written.stem}.html",
    ]


@pytest.mark.parametrize("name", ["..", ".", "", "a/b\\c d\x00e"])
def test_odd_names_make_plain_visible_files(tmp_path: Path, name: str) -> None:
    channel = make_channel({"dir": str(tmp_path)})
    written = Path(channel.send(make_delivery(channel, subscriber=name)).detail)
    assert written.parent == tmp_path / "2026-11-30"
    assert written.name not in (".eml", "..eml") and not written.name.startswith(".")
    assert all(ch.isalnum() or ch in "-_." for ch in written.name)


@pytest.mark.parametrize("name", ["研" * 90, "é" * 200, "a" * 300])
def test_a_long_name_in_any_script_fits_the_file_system(tmp_path: Path, name: str) -> None:
    # 255 bytes a file name, not 255 characters: 90 CJK characters are 270 bytes.
    channel = make_channel({"dir": str(tmp_path)})
    written = Path(channel.send(make_delivery(channel, subscriber=name)).detail)
    assert written.is_file() and written.stem == safe_name(name) and name.startswith(written.stem)


def test_sending_twice_overwrites_and_leaves_no_temp_files(tmp_path: Path) -> None:
    channel = make_channel({"dir": str(tmp_path)})
    delivery = make_delivery(channel)
    first = channel.send(delivery)
    second = channel.send(delivery)
    assert first == second
    folder = tmp_path / "2026-11-30"
    assert sorted(p.name for p in folder.iterdir()) == ["alice.eml", "alice.html"]
    assert parse(Path(second.detail))["Message-ID"] == f"<{delivery.key}@digest.local>"


def test_a_resend_to_two_thousand_addresses_overwrites_its_own_file(tmp_path: Path) -> None:
    """The Message-ID had come after a To of 90 KB, past the head a resend reads to know its
    own file: a second file was written beside it."""
    to = [f"Reader number {i} <reader{i}@example.org>" for i in range(2_000)]
    channel = make_channel({"dir": str(tmp_path), "to": to})
    delivery = make_delivery(channel)
    assert channel.send(delivery) == channel.send(delivery)
    assert sorted(p.name for p in (tmp_path / "2026-11-30").iterdir()) == [
        "alice.eml",
        "alice.html",
    ]


def test_an_unwritable_dir_is_a_retryable_delivery_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the output folder should be")
    channel = make_channel({"dir": str(blocker / "out")})
    with pytest.raises(DeliveryError, match=r"^file: cannot write .*not-a-dir") as caught:
        channel.send(make_delivery(channel))
    assert caught.value.retryable is True


def test_a_failed_write_leaves_no_half_file(tmp_path: Path) -> None:
    channel = make_channel({"dir": str(tmp_path)})
    folder = tmp_path / "2026-11-30"
    (folder / "alice.html").mkdir(parents=True)  # os.replace onto a folder fails
    with pytest.raises(DeliveryError, match="alice.html") as caught:
        channel.send(make_delivery(channel))
    assert caught.value.retryable is True
    assert sorted(p.name for p in folder.iterdir()) == ["alice.html"]
    assert not any((folder / "alice.html").iterdir())


def test_an_eml_that_cannot_be_read_is_a_retryable_error_not_a_second_file(tmp_path: Path) -> None:
    # Whose digest it holds is unknown: writing beside it could make a second copy of one.
    channel = make_channel({"dir": str(tmp_path)})
    folder = tmp_path / "2026-11-30"
    (folder / "alice.eml").mkdir(parents=True)
    with pytest.raises(DeliveryError, match="alice.eml") as caught:
        channel.send(make_delivery(channel))
    assert caught.value.retryable is True
    assert sorted(p.name for p in folder.iterdir()) == ["alice.eml"]


def test_registered_under_its_kind() -> None:
    assert FileChannel.kind == "file"
    assert CHANNELS["file"] is FileChannel


# A title that holds a literal encoded word whose text is a CRLF and a header.
ENCODED_WORD = "x alertword =?utf-8?q?=0D=0ABcc:_x@y?="


def written_headers(raw: bytes) -> list[str]:
    """The header lines of a written message, folded lines joined to their field."""
    head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii")
    return head.replace("\r\n ", " ").split("\r\n")


@pytest.mark.parametrize(
    ("subject", "shown"),
    [
        (f"Paper alert for bob: {ENCODED_WORD}", f"Paper alert for bob: {ENCODED_WORD}"),
        (f"Zoë: {ENCODED_WORD}", f"Zoë: {ENCODED_WORD}"),
        ("Alert\r\nBcc: victim@example.org\x00 nul", "Alert Bcc: victim@example.org nul"),
        ("Alert \u202eRLO\u2066 and \x1b[31mred\x07", "Alert RLO and [31mred"),
    ],
)
def test_a_subject_cannot_add_a_header_to_the_eml(tmp_path: Path, subject: str, shown: str) -> None:
    channel = make_channel({"dir": str(tmp_path), "to": "alice@example.org"})
    delivery = dataclasses.replace(make_delivery(channel), message=replace(MESSAGE, subject))
    raw = Path(channel.send(delivery).detail).read_bytes()
    parsed = parse_bytes(raw)
    assert parsed.keys() == [
        "From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type"
    ]  # fmt: skip
    assert parsed["Subject"] == shown
    assert "=?" not in "".join(h for h in written_headers(raw) if not h.startswith("Subject:"))


def test_a_long_word_in_a_subject_is_folded_under_78_characters_a_line(tmp_path: Path) -> None:
    channel = make_channel({"dir": str(tmp_path)})
    subject = "Paper alert for bob: " + "w" * 2000 + " end"
    delivery = dataclasses.replace(make_delivery(channel), message=replace(MESSAGE, subject))
    raw = Path(channel.send(delivery).detail).read_bytes()
    assert max(len(line) for line in raw.split(b"\r\n")) <= 78
    assert parse_bytes(raw)["Subject"] == subject


def test_a_non_ascii_sender_name_is_encoded_and_its_address_kept(tmp_path: Path) -> None:
    channel = make_channel({"dir": str(tmp_path)}, smtp={"from": "Zoë's digest <z@example.org>"})
    parsed = parse(Path(channel.send(make_delivery(channel)).detail))
    assert parsed["From"].addresses[0].display_name == "Zoë's digest"
    assert parsed["From"].addresses[0].addr_spec == "z@example.org"


def replace(message: Message, subject: str) -> Message:
    return dataclasses.replace(message, subject=subject)


def parse_bytes(raw: bytes) -> EmailMessage:
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def test_each_digest_of_a_day_keeps_its_own_file(tmp_path: Path) -> None:
    # A schedule that fires more than once a day: the day's first digest keeps the plain name,
    # a later period's digest takes its local time; neither overwrites the other.
    channel = make_channel({"dir": str(tmp_path)})
    first = make_delivery(channel)
    later = dataclasses.replace(
        first,
        id=8,
        period="2026-11-30T12:15:00+01:00",
        message=dataclasses.replace(MESSAGE, subject="later"),
    )
    assert Path(channel.send(first).detail).name == "alice.eml"
    assert Path(channel.send(later).detail).name == "alice-1215.eml"
    folder = tmp_path / "2026-11-30"
    names = ["alice-1215.eml", "alice-1215.html", "alice.eml", "alice.html"]
    assert sorted(p.name for p in folder.iterdir()) == names
    assert parse(folder / "alice.eml")["Message-ID"] == f"<{first.key}@digest.local>"
    assert parse(folder / "alice-1215.eml")["Subject"] == "later"
    # A resend of either row (a retry, `digest retry`) rewrites its own file, in any order.
    assert Path(channel.send(later).detail).name == "alice-1215.eml"
    assert Path(channel.send(first).detail).name == "alice.eml"
    assert sorted(p.name for p in folder.iterdir()) == names


def test_a_digest_whose_names_are_taken_gets_one_with_its_row(tmp_path: Path) -> None:
    # Two periods with one local time on one day (a time zone changed), or files left by
    # another state: the digest still never overwrites another one's file.
    channel = make_channel({"dir": str(tmp_path)})
    first = make_delivery(channel)
    other_zone = dataclasses.replace(first, id=9, period="2026-11-30T08:00:00-08:00")
    third = dataclasses.replace(first, id=10, period="2026-11-30T08:00:00-05:00")
    assert Path(channel.send(first).detail).name == "alice.eml"
    assert Path(channel.send(other_zone).detail).name == "alice-0800.eml"
    assert Path(channel.send(third).detail).name == "alice-0800-10.eml"
    assert Path(channel.send(third).detail).name == "alice-0800-10.eml"
    assert len(list((tmp_path / "2026-11-30").glob("*.eml"))) == 3


def test_two_rows_of_one_folder_sent_side_by_side_keep_a_file_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two file channels of one subscriber, one folder: their rows go out in threads side by
    # side, both found alice.eml free, and one digest overwrote the other (both "sent").
    from digest.channels import file

    looking = threading.Barrier(2, timeout=1)
    free = file._free_or_ours

    def slow(path: Path, ours: bytes) -> bool:
        with contextlib.suppress(threading.BrokenBarrierError):
            looking.wait()  # without a lock, both look before either writes
        return free(path, ours)

    monkeypatch.setattr(file, "_free_or_ours", slow)
    channel = make_channel({"dir": str(tmp_path)})
    rows = [
        make_delivery(channel),
        dataclasses.replace(make_delivery(channel), id=8, channel=dataclasses.replace(
            channel.config, name="copy")),
    ]  # fmt: skip
    with ThreadPoolExecutor(2) as pool:
        names = sorted(Path(r.detail).name for r in pool.map(channel.send, rows))
    assert names == ["alice-0800.eml", "alice.eml"]
    keys = {parse(tmp_path / "2026-11-30" / n)["Message-ID"] for n in names}
    assert keys == {f"<{r.key}@digest.local>" for r in rows}


def test_alerts_and_notices_keep_their_row_in_the_name(tmp_path: Path) -> None:
    channel = make_channel({"dir": str(tmp_path)})
    alert = dataclasses.replace(make_delivery(channel), purpose="alert")
    assert Path(channel.send(alert).detail).name == "alice.alert-7.eml"
