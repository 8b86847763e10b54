"""E-mail addresses players give: checked strictly, so that nothing but an address can reach a
mail's headers (no line breaks, no display names, no second recipient, no comments)."""

from __future__ import annotations

import re

__all__ = ["MAX_ADDRESS", "AddressError", "read_address"]

MAX_ADDRESS = 254
"""The longest address a mail can be sent to (RFC 5321's path less its brackets)."""
MAX_LOCAL = 64
"""The longest part before the @."""

_LOCAL = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*")
_LABEL = re.compile(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?")


class AddressError(ValueError):
    """The text is not an address mail can be sent to; the message says why."""


def read_address(text: str) -> str:
    """The address as it is kept: trimmed, its domain in lower case. Refused: anything but
    `local@domain` in plain ASCII (a dot-atom before the @, a host name with a dot after it),
    and anything longer than mail allows."""
    address = text.strip()
    if not address:
        raise AddressError("An e-mail address is needed for this.")
    if len(address) > MAX_ADDRESS or not address.isascii() or not address.isprintable():
        raise AddressError("That is not an e-mail address (plain letters, at most 254).")
    local, at, domain = address.rpartition("@")
    if not at or not _is_local(local) or not _is_domain(domain):
        raise AddressError("That is not an e-mail address such as ada@example.org.")
    return f"{local}@{domain.lower()}"


def _is_local(local: str) -> bool:
    return 0 < len(local) <= MAX_LOCAL and _LOCAL.fullmatch(local) is not None


def _is_domain(domain: str) -> bool:
    labels = domain.split(".")
    return (
        len(labels) >= 2
        and all(_LABEL.fullmatch(label) for label in labels)
        and not labels[-1].isdigit()  # a host name, not an IP address
    )
