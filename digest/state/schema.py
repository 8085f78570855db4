"""The state database's schema: one script per version, applied in order by store.py. Papers
seen (in arrival order), digests per subscriber and period, what each subscriber was given, the
outbox, runs; the journal's and ratings' tables come from their own modules."""

from __future__ import annotations

from digest.state.journal import HOLDS_SCHEMA
from digest.state.journal import SCHEMA as JOURNAL_SCHEMA
from digest.state.pauses import ADDRESSES_SCHEMA, FIRSTS_SCHEMA, STINTS_SCHEMA
from digest.state.ratings import SCHEMA as RATINGS_SCHEMA
from digest.state.ratings import WEB_VOTES_SCHEMA
from digest.state.votes import ACKS_SCHEMA
from digest.state.votes import SCHEMA as VOTES_SCHEMA
from digest.state.web import SCHEMA as WEB_SCHEMA

SCHEMA = [
    # version 1
    """
    CREATE TABLE papers (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,  -- arrival order: "new since" is seq > n
        id         TEXT NOT NULL UNIQUE,
        title      TEXT NOT NULL,
        abstract   TEXT NOT NULL,
        authors    TEXT NOT NULL,                      -- JSON list
        categories TEXT NOT NULL,                      -- JSON list
        venue      TEXT NOT NULL,
        url        TEXT NOT NULL,
        code_url   TEXT NOT NULL,
        published  TEXT,
        source     TEXT NOT NULL,
        first_seen TEXT NOT NULL
    );
    CREATE TABLE digests (
        id          INTEGER PRIMARY KEY,
        subscriber  TEXT NOT NULL,
        period      TEXT NOT NULL,
        day         TEXT NOT NULL,
        made_at     TEXT NOT NULL,
        through_seq INTEGER NOT NULL,                  -- papers up to here were considered
        picked      INTEGER NOT NULL,
        top_score   REAL,
        UNIQUE (subscriber, period)
    );
    -- A paper given to a subscriber once is never given again, whatever happens to delivery.
    CREATE TABLE sent (
        subscriber TEXT NOT NULL,
        paper_id   TEXT NOT NULL,
        digest_id  INTEGER NOT NULL REFERENCES digests(id),
        PRIMARY KEY (subscriber, paper_id)
    );
    CREATE TABLE outbox (
        id          INTEGER PRIMARY KEY,
        digest_id   INTEGER NOT NULL REFERENCES digests(id),
        subscriber  TEXT NOT NULL,
        period      TEXT NOT NULL,
        day         TEXT NOT NULL,
        channel     TEXT NOT NULL,                     -- the channel's name within the subscriber
        kind        TEXT NOT NULL,
        message     TEXT NOT NULL,                     -- JSON: subject, text, html
        status      TEXT NOT NULL DEFAULT 'pending',   -- pending | sent | dead
        attempts    INTEGER NOT NULL DEFAULT 0,
        next_try_at TEXT,
        last_error  TEXT NOT NULL DEFAULT '',
        created_at  TEXT NOT NULL,
        sent_at     TEXT,
        receipt     TEXT NOT NULL DEFAULT '',
        UNIQUE (subscriber, period, channel)
    );
    CREATE INDEX outbox_due ON outbox (status, next_try_at);
    CREATE TABLE runs (
        id          INTEGER PRIMARY KEY,
        started_at  TEXT NOT NULL,
        finished_at TEXT,
        clock       TEXT NOT NULL,                     -- the run's --now
        outcome     TEXT NOT NULL DEFAULT 'running',
        summary     TEXT NOT NULL DEFAULT '{}'
    );
    """,
    # version 2 (channels): how many parts of a split message the server already has
    """
    ALTER TABLE outbox ADD COLUMN parts_sent INTEGER NOT NULL DEFAULT 0;
    """,
    # (sources): every key a paper is known by (arXiv id, DOI, OpenReview forum, title hash)
    # points at its one row, so a paper arriving under another key is the same paper; and the
    # arXiv papers that subscribers `like`, looked up once (paper NULL: arXiv does not know it).
    """
    CREATE TABLE paper_keys (
        key      TEXT PRIMARY KEY,
        paper_id TEXT NOT NULL REFERENCES papers(id)
    );
    CREATE INDEX paper_keys_paper ON paper_keys (paper_id);
    CREATE TABLE liked (
        arxiv_id  TEXT PRIMARY KEY,
        paper     TEXT,                                -- JSON of the paper, or NULL: unknown id
        looked_up TEXT NOT NULL
    );
    """,
    # (scheduling): alerts, quiet-period notices, per-source outcomes; see journal.py
    JOURNAL_SCHEMA,
    # (ranking): subscribers' ratings of papers, and the fitted ranking space; see ratings.py
    RATINGS_SCHEMA,
    # (web): ratings say where they came from; readers' pauses; Matrix sync positions; see web.py
    WEB_SCHEMA,
    # (workers): several workers on one database. An outbox row is claimed by one worker for a
    # lease (on the run's clock); every worker's heartbeat; which worker made each run.
    """
    ALTER TABLE outbox ADD COLUMN claimed_by TEXT NOT NULL DEFAULT '';
    ALTER TABLE outbox ADD COLUMN lease_until TEXT;
    ALTER TABLE runs ADD COLUMN worker TEXT NOT NULL DEFAULT '';
    CREATE TABLE workers (
        name    TEXT PRIMARY KEY,                      -- $DIGEST_WORKER, else hostname:pid
        kind    TEXT NOT NULL,                         -- serve | run
        beat_at TEXT NOT NULL,
        stopped INTEGER NOT NULL DEFAULT 0,
        facts   TEXT NOT NULL DEFAULT '{}'             -- JSON: next fires, busy
    );
    """,
    # (feedback): the votes each Matrix event carried, to undo them when it is redacted; the
    # Slack requests taken, shared by every web replica; see votes.py
    VOTES_SCHEMA,
    # (alerts): the alert matches held for the next digest (over the daily cap); see journal.py
    HOLDS_SCHEMA,
    # (feedback): the ✅ that acknowledged each Matrix vote, removed when the vote is; see votes.py
    ACKS_SCHEMA,
    # (feeds): a feed's ETag and Last-Modified from its last full read, for a conditional GET;
    # see journal.py
    """
    CREATE TABLE feed_validators (
        source   TEXT NOT NULL,
        url      TEXT NOT NULL,                        -- never one holding a secret
        etag     TEXT NOT NULL DEFAULT '',
        modified TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (source, url)
    );
    """,
    # (outbox): a random token per row, in its idempotency key: two states replayed at one --now
    # gave their digests one Message-ID (and Matrix txnId). Older rows keep their key ('').
    """
    ALTER TABLE outbox ADD COLUMN token TEXT NOT NULL DEFAULT '';
    """,
    # (sources): each stored paper also by its title as publishers rewrite it (accents, "&",
    # hyphens; identity.loose_title_hash) and with its letters run together (math a newer digest
    # writes otherwise: identity.squeezed_title_hash), given by Catalog.key_loose_titles in the
    # commit of step LOOSE_TITLES.
    "",
    # (web): what each web vote replaced, by the vote's key (the rating row's origin), so that
    # its undo puts that back on any replica; see ratings.py. A rating voted before keeps its
    # origin '' and its undo link (which names its time) works as it did.
    WEB_VOTES_SCHEMA,
    # (identity): each stored paper's text keys ('a:', texts.text_keys) of its abstract alone,
    # and of the abstract without a journal's label or copyright line, given by
    # Catalog.key_loose_titles in the commit of step LOOSE_TITLES: a journal version that
    # changed the title's first words had been a new paper, sent again.
    "",
    # (web): each pause keeps the addresses it stopped, and it holds the e-mail channel that goes
    # to one of them: kept by the channel's name alone ("email", "email-2": its place in the
    # list), a channel written above it took the pause, and the reader who had unsubscribed was
    # mailed again. The addresses each subscriber is mailed at, for an older mail's unsubscribe
    # link after a rename. A pause of before keeps its name, and no addresses; see pauses.py
    ADDRESSES_SCHEMA,
    # (web): when each subscriber's stint at each address began and ended: a pause of a
    # subscriber gone from the config passes to the subscribers there whose stint began when its
    # own ended (by whose mail came first, a rename back had orphaned it and a never-mailed
    # sibling at the address had taken it); see pauses.py
    STINTS_SCHEMA,
    # (web): when each subscriber's first stint at each address began, kept when one begins
    # anew: the heir of a rename, deleted and put back since, had lost the older mail's link
    FIRSTS_SCHEMA,
]
# The step after which every stored paper has its loose title key and text keys: the last, for
# store.py keys the papers of a store without any key first, in that step (a loose key there made
# it skip them: at 15 under step 16, a store of before paper_keys kept its papers without their
# ids). A state of step 13 or 15 has the loose keys already; given again, each stays as it is.
LOOSE_TITLES = len(SCHEMA)
TOKENS = 12  # the step that gave outbox rows their token
# The first version whose outbox rows' keys hash their creation instant: the rows of an older
# state keep the key they were first sent under (token '-': subscriber, period, channel alone).
KEYED_BY_INSTANT = 11
# The papers stored before paper_keys existed get their keys in the last migration step's commit
# (store.py).
