"""How a game looks in the terminal: board, prompts, log lines, warnings, odds, summaries.

`Presenter` uses only the game protocol, so every registered game can be played and replayed;
a game may add its own presenter (Pickomino does) for friendlier words. `presenter_for` picks it.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, NamedTuple

from spieltisch.cli.terminal import Style
from spieltisch.core.protocol import CHANCE, Game
from spieltisch.games.karolinchen import notation as k_notation
from spieltisch.games.karolinchen.data import COUNTS, DICE, FRUITS, LETTERS, TOTAL_FRUITS
from spieltisch.games.karolinchen.rules import Karolinchen
from spieltisch.games.karolinchen.state import Action as KAction
from spieltisch.games.karolinchen.state import Dice as KDice
from spieltisch.games.karolinchen.state import FirstSeat as KFirstSeat
from spieltisch.games.karolinchen.state import KarolinchenState, Step
from spieltisch.games.karolinchen.state import Lay as KLay
from spieltisch.games.karolinchen.state import Leave as KLeave
from spieltisch.games.karolinchen.state import Phase as KPhase
from spieltisch.games.karolinchen.state import Tails as KTails
from spieltisch.games.pickomino import notation
from spieltisch.games.pickomino.data import FACE_SYMBOLS, FACE_VALUES, WORM
from spieltisch.games.pickomino.rules import Pickomino
from spieltisch.games.pickomino.state import (
    Action,
    Dice,
    FirstSeat,
    Phase,
    PickominoState,
    Roll,
    Stop,
    Take,
)

__all__ = [
    "KarolinchenPresenter",
    "LogLine",
    "OddsUnavailableError",
    "PickominoPresenter",
    "Presenter",
    "presenter_for",
]

YOU = "You"
"""The name of the only person at the table; log lines then say 'You roll', not 'You rolls'."""

_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


class LogLine(NamedTuple):
    """One line of the running commentary; `tone` is '', 'good' or 'bad' (for colour);
    `pause` is how many paces to wait before the line, so steps can be followed one by one."""

    text: str
    tone: str = ""
    pause: float = 0.0


class OddsUnavailableError(Exception):
    """The odds of the choices cannot be shown (no solver for this game, or not installed)."""


def _join(words: Sequence[str]) -> str:
    """'a', 'a or b', 'a, b or c'."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"


class Presenter:
    """The words and pictures of a game, from the protocol alone."""

    def __init__(self, game: Game[Any, Any], names: Sequence[str]) -> None:
        self.game = game
        self.names = list(names)
        self.style = Style(False)
        """Colours for pictures such as dice; the play command passes its console's."""

    # --- names and grammar --------------------------------------------------------------
    def verb(self, seat: int, third: str, second: str) -> str:
        """'{name} {verb}' with the verb agreeing: 'greedy rolls', 'You roll'."""
        name = self.names[seat]
        return f"{name} {second if name == YOU else third}"

    # --- the table ------------------------------------------------------------------------
    def board(self, state: Any) -> str:
        seats = ", ".join(f"{seat}: {name}" for seat, name in enumerate(self.names))
        return f"{self.game.render(state)}\nSeats      {seats}"

    def prompt(self, state: Any, seat: int) -> str:
        legal = [self.game.format_action(a) for a in self.game.legal_actions(state)]
        shown = ", ".join(legal[:10]) + (", …" if len(legal) > 10 else "")
        return f"{self.names[seat]}, your move ({shown}) > "

    def help_lines(self) -> list[str]:
        return ["  <action>      an action in the game's notation, as listed in the prompt"]

    # --- what happened ----------------------------------------------------------------------
    def log(self, before: Any, action: Any, after: Any) -> list[LogLine]:
        """Short lines telling what `action` (a seat's or chance's) did."""
        mover = self.game.to_move(before)
        text = self.game.format_action(action)
        if mover == CHANCE or mover is None:
            return [LogLine(f"chance: {text}")]
        return [LogLine(f"{self.verb(mover, 'plays', 'play')} {text}")]

    def warning(self, state: Any, action: Any) -> str | None:
        """A reason to ask the person to confirm `action`, or None to play it at once."""
        return None

    has_odds = False
    """Whether `odds_lines` can tell the odds of this game (then `help` offers them)."""

    def odds_lines(self, state: Any) -> list[str]:
        raise OddsUnavailableError(f"odds are not available for {self.game.title}")

    # --- a whole game ---------------------------------------------------------------------
    def summary(self, states: Sequence[Any], actions: Sequence[str]) -> list[str]:
        """The record move by move (the replay command prints this)."""
        lines = []
        for number, (before, text) in enumerate(zip(states, actions, strict=False), 1):
            mover = self.game.to_move(before)
            who = "chance" if mover == CHANCE or mover is None else self.names[mover]
            lines.append(f"{number:>4} · {who}: {text}")
        return lines

    def result_lines(self, state: Any) -> list[str]:
        """The final table, winners first, and who won."""
        scores = self.game.scores(state)
        won = self.game.winners(state)
        order = sorted(range(len(scores)), key=lambda s: (s not in won, -scores[s], s))
        width = max(len(name) for name in self.names)
        lines = [
            f"  {self.names[s]:<{width}}  {scores[s]:>3}{self.score_note(state, s)}" for s in order
        ]
        winners = [self.names[s] for s in won]
        if len(winners) == 1:
            lines.append(f"{winners[0]} {'win' if winners[0] == YOU else 'wins'}!")
        elif winners:
            lines.append(f"{_join(winners).replace(' or ', ' and ')} share the win.")
        return lines

    def score_note(self, state: Any, seat: int) -> str:
        """Words after a seat's score in the final table."""
        return ""


class PickominoPresenter(Presenter):
    """Pickomino in words: rolls, dice set aside, the sum, steals, failed turns."""

    game: Pickomino

    # --- the table ------------------------------------------------------------------------
    def board(self, state: PickominoState) -> str:
        return notation.render(self.game, state, self.names)

    def prompt(self, state: PickominoState, seat: int) -> str:
        who = "" if self.names[seat] == YOU else f"{self.names[seat]}, "
        if state.phase is Phase.CHOOSE:
            faces = [FACE_SYMBOLS[f] for f in self.game.choosable_faces(state)]
            return f"{who}set aside {_join(faces)} > "
        choices = [] if state.turn_must_end else ["roll"]
        claims = self.game.claims(state)
        if "steal" in claims:
            choices.append(f"stop (steal {state.total} from {self._victim_name(state)})")
        if "grill" in claims:
            tile = self.game.grill_tile(state)
            choices.append(f"grill (take {tile})" if "steal" in claims else f"stop (take {tile})")
        if claims == ["none"]:
            choices.append("stop (fails)")
        return f"{who}{_join(choices)} > "

    def help_lines(self) -> list[str]:
        return [
            "  1 2 3 4 5 w   set aside every rolled die showing that face (also 'take 4')",
            "                w or 6 sets aside the worms (a worm counts 5)",
            "  roll          roll the dice that are left",
            "  stop          end the turn and take the tile shown (a steal when there is one)",
            "  grill         end the turn taking from the grill instead of stealing",
            "  stop!         stop even when it fails (otherwise you are asked to confirm)",
        ]

    def _victim_name(self, state: PickominoState) -> str:
        victim = self.game.steal_victim(state)
        return "?" if victim is None else self.names[victim]

    # --- what happened ----------------------------------------------------------------------
    def log(self, before: PickominoState, action: Action, after: PickominoState) -> list[LogLine]:
        seat = before.seat
        if isinstance(action, FirstSeat):
            return [LogLine(f"{self.verb(action.seat, 'starts', 'start')} (drawn by lot)")]
        if isinstance(action, Roll):
            return []  # the dice that follow tell it
        lines = []
        if isinstance(action, Dice):
            dice = " ".join(notation.dice_text(action.counts))
            lines.append(LogLine(f"{self.verb(seat, 'rolls', 'roll')}: {dice}"))
        elif isinstance(action, Take):
            count = before.rolled[action.face]
            total = before.total + count * FACE_VALUES[action.face]
            aside = self.verb(seat, "sets aside", "set aside")
            lines.append(LogLine(f"{aside} {_dice_words(action.face, count)} (sum {total})"))
        if after.turn > before.turn:
            gained = len(after.stacks[seat]) > len(before.stacks[seat])
            end = f"{self.names[seat]} {self.outcome(before, action, after)}"
            lines.append(LogLine(end, "good" if gained else "bad"))
        return lines

    def outcome(
        self, before: PickominoState, action: Action, after: PickominoState, agree: bool = True
    ) -> str:
        """How a turn ended: 'takes 25 from the grill', 'steals 27 from Ann', 'fails (...): ...'.

        With `agree` the verb agrees with the player's name ('You take'), else it is 'takes'.
        """
        seat = before.seat
        you = agree and self.names[seat] == YOU
        mine, was = after.stacks[seat], before.stacks[seat]
        if len(mine) > len(was):
            tile = mine[-1]
            if tile in before.grill:
                return f"{'take' if you else 'takes'} {tile} from the grill"
            victim = next(
                s for s in range(len(before.stacks)) if s != seat and before.top(s) == tile
            )
            return f"{'steal' if you else 'steals'} {tile} from {self.names[victim]}"
        returned = was[-1] if was else None
        back = set(before.grill) | ({returned} if returned else set())
        flipped = sorted(back - set(after.grill))
        parts = [f"{returned} back to the grill" if returned else "no tile to return"]
        parts.append(f"{flipped[0]} turned down" if flipped else "nothing turned down")
        return f"{'fail' if you else 'fails'} ({self._fail_reason(before, action)}): " + ", ".join(
            parts
        )

    def _fail_reason(self, before: PickominoState, action: Action) -> str:
        if isinstance(action, Dice):
            return "no new face in the roll"
        kept = before.kept
        if isinstance(action, Take):
            kept = tuple(
                before.rolled[f] if f == action.face else n for f, n in enumerate(before.kept)
            )
        total = sum(n * v for n, v in zip(kept, FACE_VALUES, strict=True))
        if not kept[WORM]:
            return "no worm set aside"
        return f"no tile for {total}"

    def warning(self, state: PickominoState, action: Action) -> str | None:
        """Ask before a stop that fails (the spec's [decision]); every other choice plays at once.

        A set-aside that ends the turn in failure needs no warning: it is then the only choice.
        """
        if not (isinstance(action, Stop) and action.claim == "none"):
            return None
        after = self.game.apply(state, action)
        cost = self.outcome(state, action, after).split(": ", 1)[1]
        reason = self._fail_reason(state, action)
        return (
            f"stopping now fails ({reason}): {cost}.\n"
            "Type 'stop!' or 'yes' to stop anyway, or 'roll'."
        )

    has_odds = True

    def odds_lines(self, state: PickominoState) -> list[str]:
        """The solver's expected worms and failure chance of every legal choice."""
        try:  # imported by name: the solver is optional and heavy, loaded on first request
            solver = importlib.import_module("spieltisch.games.pickomino.solver")
        except ImportError:
            raise OddsUnavailableError("odds are not available (no turn solver here)") from None
        solution = solver.solve_turn(self.game, state)
        odds = list(solution.action_odds(state))
        if not odds:
            raise OddsUnavailableError("there are no choices to weigh now")
        wins = importlib.import_module("spieltisch.games.pickomino.winner")
        chances = wins.shipped_win_chances(self.game, state) or {}
        most = max(o.expected_worms for o in odds)
        safest = max(chances.values(), default=None)
        lines = ["Odds with the best play from here (most worms this turn; best chance to win):"]
        for entry in odds:
            marks = ["most worms"] if entry.expected_worms == most else []
            chance = chances.get(entry.action)
            marks += ["best to win"] if chance is not None and chance == safest else []
            win = f" {100 * chance:>5.1f}% to win" if chance is not None else ""
            label = self._odds_label(state, entry.action)
            lines.append(
                f"  {label:<16} {entry.expected_worms:>5.2f} worms expected "
                f"{100 * entry.p_fail:>5.1f}% to fail{win}"
                + (f"  ← {', '.join(marks)}" if marks else "")
            )
        return lines

    def _odds_label(self, state: PickominoState, action: Action) -> str:
        if isinstance(action, Stop):
            if action.claim == "steal":
                return f"stop: steal {state.total}"
            if action.claim == "grill":
                return f"stop: take {self.game.grill_tile(state)}"
            return "stop: fails"
        return self.game.format_action(action)

    # --- a whole game ---------------------------------------------------------------------
    def summary(self, states: Sequence[Any], actions: Sequence[str]) -> list[str]:
        """One line per turn: 'turn 3 · Ann: =1124455w take w roll =1345 take 5 grill → ...'."""
        lines: list[str] = []
        turn: list[str] = []
        for index, text in enumerate(actions):
            before, after = states[index], states[index + 1]
            if before.phase is Phase.START:
                lines.append(f"start · {text} → {self.names[after.seat]} plays first")
                continue
            turn.append(text)
            if after.turn > before.turn:
                action = self.game.parse_action(before, text)
                end = self.outcome(before, action, after, agree=False)
                lines.append(self._turn_line(before, turn, end))
                turn = []
        if turn:
            lines.append(self._turn_line(states[-1], turn, "(unfinished)"))
        return lines

    def _turn_line(self, state: PickominoState, actions: Sequence[str], end: str) -> str:
        return f"turn {state.turn + 1} · {self.names[state.seat]}: {' '.join(actions)} → {end}"

    def score_note(self, state: PickominoState, seat: int) -> str:
        tiles = " ".join(str(t) for t in sorted(state.stacks[seat])) or "no tiles"
        return f" worms   {tiles}"


def _dice_words(face: int, count: int) -> str:
    """'one worm', 'three 4s'."""
    if face == WORM:
        return f"{_COUNT_WORDS[count]} worm{'s' if count > 1 else ''}"
    return f"{_COUNT_WORDS[count]} {FACE_SYMBOLS[face]}{'s' if count > 1 else ''}"


# --- Karolinchen -----------------------------------------------------------------------------
_DIE_STYLES = {
    "red": ("bold", "red"),
    "green": ("bold", "green"),
    "yellow": ("bold", "yellow"),
    "purple": ("bold", "magenta"),
    "orange": ("bold", "orange"),
    "blue": ("bold", "blue"),
}


class KarolinchenPresenter(Presenter):
    """Karolinchen in words: who looks, rolls, takes dice, lays a card, and when worms eat.

    Dice show their colour's letter (R G Y P O B) as well as the colour, for colour-blind
    players; `style` (the play command's) colours them unless NO_COLOR is set.
    """

    game: Karolinchen

    def paint(self, text: str, fruit: int) -> str:
        return self.style(text, *_DIE_STYLES.get(FRUITS[fruit].colour, ()))

    def dice(self, counts: Sequence[int]) -> str:
        return " ".join(
            self.paint(f"[{LETTERS[f].upper()}]", f) for f, n in enumerate(counts) for _ in range(n)
        )

    def owner(self, seat: int, start: bool = False) -> str:
        """'Ann's' or 'your' ('Your' at the `start` of a sentence)."""
        if self.names[seat] == YOU:
            return "Your" if start else "your"
        return f"{self.names[seat]}'s"

    # --- the table ------------------------------------------------------------------------
    def board(self, state: KarolinchenState) -> str:
        return k_notation.render(self.game, state, self.names, self.paint)

    def prompt(self, state: KarolinchenState, seat: int) -> str:
        who = "" if self.names[seat] == YOU else f"{self.names[seat]}, "
        if state.phase is KPhase.TAKE:
            fruit = state.current(seat)
            count = min(state.middle[fruit], state.free(seat))
            return f"{who}take {_dice_count(count)} for your {FRUITS[fruit].name} or leave > "
        choices = []
        for fruit in state.hand(seat):
            count = min(state.middle[fruit], COUNTS[fruit])
            gain = f" +{count}" if count else ""  # the dice it would take at once
            choices.append(f"{LETTERS[fruit]} {FRUITS[fruit].name}{gain}")
        return f"{who}lay {_join(choices)} > "

    def help_lines(self) -> list[str]:
        return [
            "  r g y p o b   lay the card of that fruit (also 'lay g' or 'gooseberries')",
            "                r cherries, g gooseberries, y mirabelles, p plums, o apricots,",
            "                b blueberry; '+2' says a card would take two dice at once",
            "  take, leave   take the matching dice for your new card, or leave them",
            "                (only with the option auto_take=false)",
        ]

    # --- what happened ----------------------------------------------------------------------
    def summary(self, states: Sequence[Any], actions: Sequence[str]) -> list[str]:
        """The record move by move, each with its notation and what it did in words."""
        lines = []
        for number, text in enumerate(actions, 1):
            before, after = states[number - 1], states[number]
            told = self.log(before, self.game.parse_action(before, text), after)
            words = "; ".join(line.text.strip(" —.") for line in told)
            lines.append(f"{number:>4} · {text:<8} {words}.")
        return lines

    def log(
        self, before: KarolinchenState, action: KAction, after: KarolinchenState
    ) -> list[LogLine]:
        first = self._action_line(before, action)
        lines = [first] if first is not None else []
        steps = self.game.trace(before, action)
        index = 0
        while index < len(steps):
            if steps[index].kind == "eat":
                eats = [s for s in steps[index:] if s.kind == "eat"]
                lines.append(self._eating_line(eats))
                index += len(eats)
                continue
            line = self._step_line(steps[index])
            if line is not None:
                lines.append(line)
            index += 1
        return lines

    def _action_line(self, before: KarolinchenState, action: KAction) -> LogLine | None:
        seat = before.seat
        if isinstance(action, KTails):
            tails = ", ".join(
                f"{self.names[s]} {FRUITS[f].name}" for s, f in enumerate(action.fruits)
            )
            return LogLine(f"Tail cards (drawn by lot): {tails}")
        if isinstance(action, KFirstSeat):
            return LogLine(f"{self.verb(action.seat, 'starts', 'start')} (drawn by lot)")
        if isinstance(action, KDice):
            if before.phase is KPhase.DEAL:
                return LogLine(f"The dice are rolled into the middle: {self.dice(action.counts)}")
            return LogLine(f"{self.owner(seat, True)} roll: {self.dice(action.counts)}")
        if isinstance(action, KLay):
            fruit = action.fruit
            lays = self.verb(seat, "lays", "lay")
            size = f"{COUNTS[fruit]} fruit{'s' if COUNTS[fruit] > 1 else ''}"
            return LogLine(f"{lays} the {FRUITS[fruit].name} card ({size})")
        if isinstance(action, KLeave):
            return LogLine(f"{self.verb(seat, 'leaves', 'leave')} the dice in the middle")
        return None  # taking: the step that follows tells it

    def _step_line(self, step: Step) -> LogLine | None:
        name, fruit = self.names[step.seat], step.fruit
        pause = 1.0
        if step.kind == "turn":
            card = FRUITS[fruit]
            return LogLine(f"— {name}: {card.name} ({card.colour}) —", "", pause)
        if step.kind == "take":
            dice = self.paint(f"[{LETTERS[fruit].upper()}]", fruit) * step.number
            takes = self.verb(step.seat, "takes", "take")
            return LogLine(f"{takes} {dice} for the {FRUITS[fruit].name}", "good", pause)
        if step.kind == "none":
            return LogLine(
                f"No {FRUITS[fruit].colour} die for {self.owner(step.seat)} card.", "bad"
            )
        if step.kind == "miss":
            rolls = self.verb(step.seat, "rolls", "roll")
            what = f"{rolls} the {_dice_count(step.number)}"
            return LogLine(f"No {FRUITS[fruit].colour} die in the middle: {what}.", "", pause)
        if step.kind == "roll" and step.number == DICE:
            return LogLine(f"{self.verb(step.seat, 'rolls', 'roll')} all {DICE} dice.", "", pause)
        if step.kind == "full":
            owner = self.owner(step.seat, True)
            return LogLine(f"{owner} {FRUITS[fruit].name} card is full!", "good")
        if step.kind == "grow":
            owner = self.owner(step.seat, True)
            return LogLine(
                f"{owner} worm grows: the {FRUITS[fruit].name} card is all eaten.", "good"
            )
        if step.kind == "win":
            covers = self.verb(step.seat, "covers", "cover")
            return LogLine(
                f"{covers} the very last fruit and {'win' if name == YOU else 'wins'}!",
                "good",
                pause,
            )
        return None

    def _eating_line(self, eats: Sequence[Step]) -> LogLine:
        parts = [f"{self.names[s.seat]} {s.number}" for s in eats]
        return LogLine(
            f"All dice gone: time to eat! Fruits eaten: {', '.join(parts)}.", "good", 1.5
        )

    def score_note(self, state: KarolinchenState, seat: int) -> str:
        return f" of {TOTAL_FRUITS} fruits"


def _dice_count(count: int) -> str:
    """'one die', 'three dice'."""
    return f"{_COUNT_WORDS[count]} {'die' if count == 1 else 'dice'}"


_PRESENTERS: dict[str, type[Presenter]] = {
    Pickomino.name: PickominoPresenter,
    Karolinchen.name: KarolinchenPresenter,
}


def presenter_for(game: Game[Any, Any], names: Sequence[str]) -> Presenter:
    """The game's own presenter if it has one, else the generic one."""
    return _PRESENTERS.get(game.name, Presenter)(game, names)


def _add_riffraff() -> None:
    """Riff Raff's presenter lives in its own module, which builds on this one."""
    from spieltisch.cli.riffraff_present import RiffRaffPresenter

    _PRESENTERS[RiffRaffPresenter.game_name] = RiffRaffPresenter


_add_riffraff()
