"""What the parts of the table host share: the refusal a client gets, seat tokens, bots that
stand in, and a few facts about a table (a guided game, why a job failed)."""

from __future__ import annotations

import hashlib
import secrets
from typing import TYPE_CHECKING, Any

from spieltisch.bots.base import bot_names, make_bot
from spieltisch.core.protocol import Game, JsonValue
from spieltisch.server.store import MAX_BOT_SPEC, ChatRow
from spieltisch.server.work import TooSlow

if TYPE_CHECKING:
    from spieltisch.server.table import LiveTable

__all__ = [
    "TableError",
    "bot_decision",
    "chat_json",
    "check_bot_spec",
    "clean_chat",
    "clean_name",
    "hash_token",
    "is_tutorial",
    "new_token",
    "reason",
    "sentence",
    "stand_in_bot",
    "storage_down",
    "tutorial_left",
]


MAX_NAME = 32
MAX_CHAT = 300
BOT_THINK = 1.0
"""Seconds of wall time a bot at a table may think before it keeps its best move so far (the
careful bot's trials: a person at the table should not wait more than 1.5 s)."""


class TableError(Exception):
    """A request the table refuses; `code` is stable for programs, the message is for people;
    `details` go into the answer beside them (such as `retry_after`)."""

    def __init__(self, code: str, message: str, **details: JsonValue) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_bot_spec(spec: str) -> None:
    """Refuse a bot spec longer than a seat can store."""
    if len(spec) > MAX_BOT_SPEC:
        raise TableError("bad_bot", f"A bot spec may have at most {MAX_BOT_SPEC} characters.")


def stand_in_bot(game: Game[Any, Any]) -> str:
    """The bot that plays for a person who left or ran out of time."""
    names = bot_names(game.name)
    for preferred in ("optimal", "greedy", "random"):
        if preferred in names:
            return preferred
    return names[0]


def bot_decision(game: Game[Any, Any], state: Any, spec: str, seed: int) -> str:
    """What the bot `spec`, seeded by `seed`, plays in `state` (a job for a worker), thought
    out within `BOT_THINK` seconds."""
    bot = make_bot(game, spec, seed)
    bot.think_within(BOT_THINK)
    return str(game.format_action(bot.choose(state)))


def chat_json(line: ChatRow) -> dict[str, JsonValue]:
    return {"n": line.n, "seat": line.seat, "name": line.name, "text": line.text}


def sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return "That is not possible now."
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def storage_down() -> TableError:
    return TableError(
        "unavailable", "The server cannot store anything right now; try again in a moment."
    )


def is_tutorial(table: LiveTable) -> bool:
    """Whether `table` is a guided first game (its first entry says so)."""
    return bool(table.entries) and table.entries[0].key == "tutorial"


def tutorial_left(table: LiveTable) -> bool:
    """Whether the learner has left this guided game (it then stays as it is)."""
    return is_tutorial(table) and any(e.key == "tutorial_left" for e in reversed(table.entries))


def reason(error: Exception) -> str:
    """Why a job failed, for the log: 'too slow: ...' or the exception and its message."""
    if isinstance(error, TooSlow):
        return f"too slow: {error}"
    return f"{type(error).__name__}: {error}"


def _one_line(text: str) -> str:
    """Only printable characters, runs of white space made one space, trimmed."""
    return " ".join("".join(ch for ch in text if ch.isprintable()).split())


def clean_name(name: str) -> str:
    """A display name: printable, trimmed, 1 to 32 characters."""
    cleaned = _one_line(name)
    if not cleaned:
        raise TableError("bad_name", "Please give a name of 1 to 32 characters.")
    if len(cleaned) > MAX_NAME:
        raise TableError("bad_name", f"A name can have at most {MAX_NAME} characters.")
    return cleaned


def clean_chat(text: Any) -> str:
    """A chat line: printable, trimmed, 1 to 300 characters."""
    if not isinstance(text, str):
        raise TableError("bad_message", "A chat message needs its text.")
    cleaned = _one_line(text)
    if not cleaned:
        raise TableError("bad_chat", "Type something to say first.")
    if len(cleaned) > MAX_CHAT:
        raise TableError("bad_chat", f"A chat line can have at most {MAX_CHAT} characters.")
    return cleaned
