"""User names: what a name may be, and the key under which two look-alike names are one.

A user name is read in Unicode's compatibility form (NFKC), so full-width letters, ligatures
and the like become the plain letters they stand for. It is 3 to 20 letters and digits of one
script (Japanese and Korean names may also mix their kana or hangul with Han characters), with
single `_`, `-` or `.` between them. Two names are the same account when their keys are equal:
the key ignores case and accents, treats the separators as one, and folds the look-alikes that
mislead in names (0 and o; 1, l, i and I; rn and m; vv and w; Cyrillic and Greek letters that
look Latin, after Unicode's confusables list, TR39).
"""

from __future__ import annotations

import itertools
import unicodedata

__all__ = ["MAX_USER_NAME", "MIN_USER_NAME", "UserNameError", "name_key", "read_user_name"]

MIN_USER_NAME = 3
MAX_USER_NAME = 20
SEPARATORS = "_-."
MIXABLE = ({"HIRAGANA", "KATAKANA", "CJK"}, {"HANGUL", "CJK"})
"""Scripts a name may mix: Japanese and Korean writing."""
SIMILAR_LETTERS = {
    "CYRILLIC SMALL LETTER": (
        ("A", "a"),
        ("VE", "b"),
        ("IE", "e"),
        ("KA", "k"),
        ("EM", "m"),
        ("EN", "h"),
        ("O", "o"),
        ("ER", "p"),
        ("ES", "c"),
        ("TE", "t"),
        ("U", "y"),
        ("HA", "x"),
        ("DZE", "s"),
        ("BYELORUSSIAN-UKRAINIAN I", "l"),
        ("JE", "j"),
        ("KOMI DE", "d"),
        ("SHHA", "h"),
        ("PALOCHKA", "l"),
        ("QA", "q"),
        ("WE", "w"),
        ("SOFT SIGN", "b"),
    ),
    "GREEK SMALL LETTER": (
        ("ALPHA", "a"),
        ("BETA", "b"),
        ("EPSILON", "e"),
        ("ETA", "n"),
        ("IOTA", "l"),
        ("KAPPA", "k"),
        ("NU", "v"),
        ("OMICRON", "o"),
        ("RHO", "p"),
        ("TAU", "t"),
        ("UPSILON", "u"),
        ("CHI", "x"),
        ("ZETA", "z"),
        ("MU", "u"),
    ),
}
"""Letters of other scripts that look like a Latin one, by their Unicode names."""
LOOK_ALIKES = str.maketrans(
    {"0": "o", "1": "l", "i": "l", "|": "l", "-": "_", ".": "_"}
    | {
        unicodedata.lookup(f"{script} {letter}"): latin
        for script, letters in SIMILAR_LETTERS.items()
        for letter, latin in letters
    }
)
LOOK_ALIKE_PAIRS = (("rn", "m"), ("vv", "w"))


class UserNameError(ValueError):
    """A user name that is refused, with a sentence saying why."""


def read_user_name(text: str) -> str:
    """The user name `text` stands for (NFKC, trimmed), or `UserNameError` saying why not."""
    name = unicodedata.normalize("NFKC", text).strip()
    if not MIN_USER_NAME <= len(name) <= MAX_USER_NAME:
        raise UserNameError(
            f"A user name has {MIN_USER_NAME} to {MAX_USER_NAME} letters, digits and single "
            f"'_', '-' or '.' between them."
        )
    _check_characters(name)
    _check_script(name)
    return name


def _check_characters(name: str) -> None:
    if name[0] in SEPARATORS or name[-1] in SEPARATORS:
        raise UserNameError("A user name starts and ends with a letter or a digit.")
    for before, char in itertools.pairwise(" " + name):
        if char in SEPARATORS and before in SEPARATORS:
            raise UserNameError("A user name has no two of '_', '-' and '.' side by side.")
        if not (_is_letter(char) or char in "0123456789" or char in SEPARATORS):
            raise UserNameError(f"A user name cannot contain {char!r}.")


def _is_letter(char: str) -> bool:
    """A letter, or a mark that belongs to the letter before it."""
    return unicodedata.category(char)[0] in "LM"


def _check_script(name: str) -> None:
    scripts = {_script(char) for char in name if _is_letter(char)} - {"COMBINING"}
    if len(scripts) > 1 and not any(scripts <= mixable for mixable in MIXABLE):
        raise UserNameError("A user name is written in one script (not Latin and Cyrillic, say).")


def _script(char: str) -> str:
    """The script of a letter as Unicode names it: LATIN, CYRILLIC, GREEK, CJK, ..."""
    return unicodedata.name(char, "UNKNOWN").split()[0]


def name_key(name: str) -> str:
    """The key under which a user name is unique: equal for names that look alike."""
    plain = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name).casefold())
    key = "".join(c for c in plain if not unicodedata.combining(c)).translate(LOOK_ALIKES)
    for pair, single in LOOK_ALIKE_PAIRS:
        key = key.replace(pair, single)
    return key
