"""Errors shared by every game."""

__all__ = ["IllegalAction", "InvalidOptions", "RecordError"]


class IllegalAction(ValueError):
    """An action that the rules do not allow in the given state; the state is unchanged."""


class InvalidOptions(ValueError):
    """Game options that are unknown, of the wrong type or out of range."""


class RecordError(ValueError):
    """A game record (or save file) that is malformed or does not replay."""
