"""Unsubscribe links: `?a=ACCOUNT&t=TOKEN`, where the token is an HMAC of the account's id
under the account's own mail secret. It works without signing in, only for that account, and
stops working when the address changes (a new secret is made with it)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from urllib.parse import urlencode

__all__ = ["new_mail_secret", "token_matches", "unsubscribe_token", "unsubscribe_url"]

UNSUBSCRIBE_PATH = "/mail/unsubscribe"


def new_mail_secret() -> str:
    """The key of an account's unsubscribe links (32 random bytes, hex)."""
    return secrets.token_hex(32)


def unsubscribe_token(secret: str, account_id: str) -> str:
    mac = hmac.new(bytes.fromhex(secret), b"unsubscribe:" + account_id.encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")


def token_matches(secret: str | None, account_id: str, token: str) -> bool:
    """Whether `token` is the account's unsubscribe token (compared in constant time)."""
    if not secret:
        return False
    return hmac.compare_digest(unsubscribe_token(secret, account_id), token)


def unsubscribe_url(site_url: str, secret: str, account_id: str) -> str:
    query = urlencode({"a": account_id, "t": unsubscribe_token(secret, account_id)})
    return f"{site_url.rstrip('/')}{UNSUBSCRIBE_PATH}?{query}"
