"""The base of the state's table groups: the store's connection, its transactions and its time
stamps, which the Store alone opens and hands to each."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime

from digest.state.engine import Engine


class Tables:
    """Some tables of the state database, over the store's connection, its transactions and its
    time stamps: the Store makes one of each kind and alone opens the database."""

    def __init__(
        self,
        db: Engine,
        transaction: Callable[[], AbstractContextManager[Engine]],
        stamp: Callable[[datetime], str],
    ) -> None:
        self.db, self.transaction, self.stamp = db, transaction, stamp
