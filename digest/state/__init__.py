"""The state: the only code that touches the database. store.py opens and migrates it; the
table modules (catalog, journal, ratings, deliveries) read and write it in short transactions."""

from digest.state.deliveries import OutboxRow, stamp
from digest.state.store import Store

__all__ = ["OutboxRow", "Store", "stamp"]
