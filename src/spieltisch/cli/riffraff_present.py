"""Riff Raff in the terminal: the ship in text, prompts, and a running commentary.

Card choices stay hidden in the log until every card is down, so hot-seat players and bots'
opponents learn nothing before the reveal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spieltisch.cli.present import YOU, LogLine, Presenter
from spieltisch.core.protocol import CHANCE
from spieltisch.games.riffraff import notation, story
from spieltisch.games.riffraff.board import piece_type
from spieltisch.games.riffraff.data import PIECE_NAMES, PIECE_WORDS
from spieltisch.games.riffraff.rules import RiffRaff
from spieltisch.games.riffraff.state import (
    Action,
    Announce,
    Captain,
    Card,
    Catch,
    FirstCaptain,
    Next,
    Phase,
    Place,
    RiffRaffState,
    Settled,
)

__all__ = ["RiffRaffPresenter"]


_WORD = dict(zip(PIECE_NAMES, PIECE_WORDS, strict=True))
"""A piece's name in the notation to the word shown (a flacon is a bottle, a box a crate)."""


def _pieces(bodies: Sequence[int]) -> str:
    return ", ".join(f"{PIECE_WORDS[piece_type(b)]} ({b})" for b in bodies) or "nothing"


def _words(names: Sequence[str]) -> list[str]:
    return [_WORD.get(name, name) for name in names]


class RiffRaffPresenter(Presenter):
    game_name = RiffRaff.name
    game: RiffRaff

    def board(self, state: RiffRaffState) -> str:
        return notation.render(self.game, state, self.names)

    def prompt(self, state: RiffRaffState, seat: int) -> str:
        who = "" if self.names[seat] == YOU else f"{self.names[seat]}, "
        phase = state.phase
        if phase is Phase.CARDS:
            hand = " ".join(str(c) for c in state.hands[seat])
            return f"{who}lay a card face down ({hand}) > "
        if phase is Phase.CAPTAIN:
            tied = ", ".join(
                f"captain {s} ({self.names[s]})" for s in self.game.highest_seats(state)
            )
            return f"{who}name the new captain: {tied} > "
        if phase is Phase.NEXT:
            tied = ", ".join(
                f"next {s} ({self.names[s]})" for s in self.game.next_candidates(state)
            )
            return f"{who}who plays next: {tied} > "
        if phase is Phase.ANNOUNCE:
            return f"{who}load one or two pieces onto area {state.card(seat)}? (one, two) > "
        if phase is Phase.PLACE:
            held = ", ".join(n for n, c in zip(PIECE_WORDS, state.supplies[seat], strict=True) if c)
            return (
                f"{who}place a piece on area {state.card(seat)}, e.g. 'crate u=0.5 yaw=90' "
                f"({held}) > "
            )
        fell = " ".join(str(f.body) for f in state.falling)
        return f"{who}which pieces did you catch? (none, or up to two of {fell}) > "

    def help_lines(self) -> list[str]:
        return [
            "  card 7 (or 7)  lay a card face down; its number is the area you load",
            "  one / two      announce one or two pieces (two: a yard area with cargo on it)",
            "  crate u=0.5    place a crate at u (0 at the mast or midships, 1 at the far end)",
            "                 add v=-1..1 across the area, yaw=DEGREES, and a face: up side end",
            "  captain 2      (after a tie) name the new captain; next 2: who plays next",
            "  catch 3 11     (when you catch yourself) the pieces caught, or 'catch none'",
        ]

    # --- what happened ----------------------------------------------------------------------
    def log(self, before: RiffRaffState, action: Action, after: RiffRaffState) -> list[LogLine]:
        if isinstance(action, FirstCaptain):
            return [LogLine(f"{self._is(action.seat)} the first captain (drawn by lot)")]
        if isinstance(action, Card):
            return self._card_lines(before, after)
        if isinstance(action, Captain | Next):
            word = "captain" if isinstance(action, Captain) else "next to play"
            return [LogLine(f"{self._is(action.seat)} {word}")]
        if isinstance(action, Announce):
            count = "two pieces" if action.count == 2 else "one piece"
            return [LogLine(f"{self.verb(self._mover(before), 'announces', 'announce')} {count}")]
        if isinstance(action, Place):
            notated = notation.format_placement(action.placement)
            text = PIECE_WORDS[action.placement.piece] + notated[notated.index(" ") :]
            return [LogLine(f"{self.verb(self._mover(before), 'places', 'place')} {text}")]
        if isinstance(action, Settled):
            return self._settled_lines(before, action)
        return self._catch_lines(before, action, after)

    def _whose(self, seat: int) -> str:
        return "your" if self.names[seat] == YOU else f"{self.names[seat]}'s"

    def _is(self, seat: int) -> str:
        return self.verb(seat, "is", "are")

    def _mover(self, state: RiffRaffState) -> int:
        mover = self.game.to_move(state)
        return 0 if mover is None or mover == CHANCE else mover

    def _card_lines(self, before: RiffRaffState, after: RiffRaffState) -> list[LogLine]:
        seat = before.chosen.index(None)
        lines = [LogLine(f"{self.verb(seat, 'lays', 'lay')} a card face down")]
        if after.played == before.played:
            return lines  # not all cards are down yet
        shown = ", ".join(f"{self.names[s]} {after.card(s)}" for s in range(self.game.num_players))
        lines.append(LogLine(f"Cards: {shown}", pause=1))
        if after.phase is not Phase.CAPTAIN:
            lines.append(LogLine(f"{self._is(after.captain)} captain"))
        return lines

    def _settled_lines(self, before: RiffRaffState, outcome: Settled) -> list[LogLine]:
        tilt = notation.tilt_words(outcome.board)
        if not outcome.fallen:
            return [LogLine(f"  the ship {tilt}; nothing falls", "good")]
        told = story.tell(before, outcome)["fell"]
        fell = ", ".join(f"{_WORD[f['piece']]} ({f['body']}) from area {f['area']}" for f in told)
        return [LogLine(f"  the ship {tilt}; falling: {fell}", "bad", pause=1)]

    def _catch_lines(
        self, before: RiffRaffState, action: Catch, after: RiffRaffState
    ) -> list[LogLine]:
        seat = before.active if before.active is not None else 0
        told = story.tell(before, action)
        lines = []
        if told["caught"]:
            caught = ", ".join(_words(told["caught"]))
            lines.append(LogLine(f"  {self.verb(seat, 'catches', 'catch')} {caught}", "good"))
        elif told["back"]:
            own = self._whose(seat)
            lines.append(LogLine(f"  only {own} own piece was caught: that does not count"))
        home = _words([*told["back"], *told["supply"]])
        if home:
            lines.append(LogLine(f"  into {self._whose(seat)} supply: {', '.join(home)}", "bad"))
        if after.phase is Phase.OVER and after.winners == (seat,):
            lines.append(LogLine(f"{self.names[seat]} has no cargo left!", "good"))
        return lines

    def summary(self, states: Sequence[Any], actions: Sequence[str]) -> list[str]:
        """The record move by move, physics outcomes shortened to what fell."""
        lines = super().summary(states, actions)
        for index, text in enumerate(actions[: len(lines)]):
            if text.startswith("settled"):
                outcome = self.game.parse_action(states[index], text)
                assert isinstance(outcome, Settled)
                fell = _pieces([f.body for f in outcome.fallen])
                lines[index] = lines[index].split(": ", 1)[0] + f": settled, fell: {fell}"
        return lines

    def score_note(self, state: RiffRaffState, seat: int) -> str:
        return f" pieces loaded, {state.supply_size(seat)} left"
