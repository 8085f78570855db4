"""The values every stage passes on (values.py), the package's errors (errors.py) and a paper's
identity across sources and versions (identity.py). Imports nothing else from the package."""

from digest.models.errors import (
    ConfigError,
    DeliveryError,
    DigestError,
    InputError,
    SourceError,
    StateError,
    redact,
)
from digest.models.values import (
    ChannelConfig,
    Delivery,
    Digest,
    Entry,
    Message,
    Notice,
    Paper,
    Profile,
    Receipt,
    Scored,
    Settings,
    SourceConfig,
    Subscriber,
    Warn,
    safe_name,
)

__all__ = [
    "ChannelConfig",
    "ConfigError",
    "Delivery",
    "DeliveryError",
    "Digest",
    "DigestError",
    "Entry",
    "InputError",
    "Message",
    "Paper",
    "Profile",
    "Receipt",
    "Scored",
    "Settings",
    "SourceConfig",
    "SourceError",
    "StateError",
    "Subscriber",
    "Warn",
    "Notice",
    "redact",
    "safe_name",
]
