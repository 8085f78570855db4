"""Test helpers for scheduling and alerts: papers dropped into a `files` source folder as they
"arrive", subscribers with the file channel, and instants written the way people say them."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from digest.models import ChannelConfig, Profile, Settings, SourceConfig, Subscriber
from digest.state import Store

# Abstracts of an abstract's length: ranking weighs a text of fewer than 40 features (a title
# alone) as saying less (ranking/features.py, SHORT). The first sentence is the title.
PRIVACY = (
    "Differential privacy for federated learning: private client updates with noise. Each "
    "client clips its gradient and adds calibrated Gaussian noise before secure aggregation, so "
    "the server never sees a raw update. We bound the privacy loss with a moments accountant, "
    "compare utility against centralized optimization, and study how client participation rates "
    "trade accuracy for stronger guarantees."
)
VISION = (
    "Diffusion models generate images from text prompts with classifier-free guidance. A denoising "
    "network conditioned on caption embeddings refines pixels over many sampling steps, and the "
    "guidance scale sets how closely each picture follows its prompt. We measure fidelity with FID "
    "and CLIP scores, distill the sampler into fewer steps, and inspect failure cases such as "
    "counting objects or rendering legible lettering."
)
ROBOTS = (
    "Legged robots learn to walk over rough terrain from proprioception alone. A quadruped "
    "policy trained in simulation with randomized friction, payloads and motor delays transfers "
    "to hardware without tuning. Joint encoders and an inertial unit are its only sensors; it "
    "recovers from slips, climbs stairs and crosses gravel, mud and snow, and a teacher with "
    "privileged height maps guides the student during training."
)


def at(text: str) -> datetime:
    """An aware instant from ISO 8601 ("2026-11-30T09:00Z" works too)."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def paper(ident: str, abstract: str, title: str = "", authors: tuple[str, ...] = ()) -> dict:
    return {
        "id": ident,
        "title": title or f"{abstract.split(':')[0].split('.')[0]} ({ident})",
        "abstract": f"{abstract} (Report {ident}.)",  # two papers never share an abstract
        "authors": list(authors),
        "categories": [],
        "published": None,
        "url": f"https://example.org/{ident}",
    }


def arrive(folder: Path, name: str, *papers: dict[str, Any]) -> None:
    """Papers that a source will read from now on (one JSONL file per batch)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(p) for p in papers]
    (folder / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def subscriber(name: str, interests: str, **extra: Any) -> Subscriber:
    channel = ChannelConfig("file", "file", {"dir": "out"})
    profile = Profile(interests=interests, authors=tuple(extra.pop("authors", ())))
    base = Subscriber(name, profile, (channel,), top_k=3, min_score=0.05)
    return replace(base, **extra)


def settings_for(root: Path, *subscribers: Subscriber, **extra: Any) -> Settings:
    source = SourceConfig("files", "papers", {"path": str(root / "papers")})
    return Settings("test.toml", (source,), subscribers, **extra)


def digests(store: Store) -> list[tuple[str, str, int]]:
    """(subscriber, period, papers picked) of every digest made, in order."""
    rows = store.db.execute("SELECT subscriber, period, picked FROM digests ORDER BY id")
    return [(r[0], r[1], r[2]) for r in rows]


def given(store: Store, subscriber: str, period: str) -> list[str]:
    """The paper ids a digest carried."""
    rows = store.db.execute(
        "SELECT s.paper_id FROM sent s JOIN digests d ON d.id = s.digest_id"
        " WHERE d.subscriber = ? AND d.period = ? ORDER BY s.paper_id",
        (subscriber, period),
    )
    return [r[0] for r in rows]


def alerted(store: Store) -> list[tuple[str, str, str]]:
    """(subscriber, paper id, local day) of every alert, oldest first."""
    return [(a["subscriber"], a["paper_id"], a["day"]) for a in store.journal.alerts()]
