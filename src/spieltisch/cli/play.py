"""`spieltisch play GAME`: play in the terminal against bots, or hot-seat with friends.

The loop is generic over the registry: chance comes from one seeded generator, bots from the
bot registry, people type actions in the game's notation. How the game looks and talks comes
from its presenter (`cli.present`); all terminal input and output goes through a `Console`.
The presenters, the bots and the terminal are imported where a session needs them, so that
building the argument parser loads no game.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from spieltisch.cli.common import (
    HUMAN,
    add_option_argument,
    fail,
    game_from_args,
    parse_seats,
)
from spieltisch.core.errors import InvalidOptions, RecordError
from spieltisch.core.protocol import CHANCE, Game
from spieltisch.core.record import GameRecord, load_record, replay_states, save_record
from spieltisch.core.registry import game_class, game_names, make_game

if TYPE_CHECKING:
    from spieltisch.bots.base import Bot
    from spieltisch.cli.present import LogLine
    from spieltisch.cli.terminal import Console

__all__ = ["PlaySession", "add_parser", "bot_seeds", "run", "seat_names"]

_HELP = ("help", "h")
_ODDS = ("odds", "?")
_QUIT = ("quit", "q", "exit")
_BOARD = ("board", "b")
_COMMANDS = (*_HELP, *_ODDS, *_QUIT, *_BOARD)
_YES = ("yes", "y")
_NO = ("no", "n")
MAX_LINE = 300
"""Longest line read as a command; anything longer is refused without being echoed."""
_TONES = {"good": ("green",), "bad": ("red",), "": ()}
DEFAULT_SEATS = f"{HUMAN},greedy"


def add_parser(commands: Any) -> None:
    """Add the `play` command to the sub-parsers of the main parser."""
    parser = commands.add_parser(
        "play",
        help="play a game in the terminal against bots or friends",
        description="Play in the terminal: any mix of people ('you') and bots. "
        "Type 'help' during the game for the commands.",
    )
    parser.add_argument("game", nargs="?", help=f"the game to play: {', '.join(game_names())}")
    parser.add_argument(
        "--seats",
        help="comma-separated seats in playing order: 'you' for a person (several for "
        f"hot-seat) or a bot name, e.g. you,optimal,greedy (default: {DEFAULT_SEATS})",
    )
    parser.add_argument("--names", help="comma-separated names for the seats, e.g. Ann,Bob")
    parser.add_argument(
        "--seed", type=int, help="seed for the dice (default: a random one, printed at the start)"
    )
    parser.add_argument("--fast", action="store_true", help="show the bots' moves without pausing")
    parser.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="write the game record to FILE after every move (replay it with 'spieltisch replay')",
    )
    parser.add_argument(
        "--resume",
        type=Path,
        metavar="FILE",
        help="go on with a saved game (and keep saving to FILE unless --save says otherwise)",
    )
    parser.add_argument(
        "--png",
        type=Path,
        metavar="FILE",
        help="riffraff: draw the ship to FILE after every placement (offscreen, by MuJoCo)",
    )
    add_option_argument(parser)
    parser.set_defaults(run=run)


def seat_names(seats: Sequence[str], names: str | None = None) -> list[str]:
    """Given names, or 'You' / 'Player 1', 'Player 2'... for people and the bot names for bots."""
    from spieltisch.cli.present import YOU

    if names:
        given = [name.strip() for name in names.split(",")]
        if len(given) != len(seats) or not all(given):
            raise InvalidOptions(f"--names needs {len(seats)} names, one per seat")
        if len(set(given)) != len(given):
            raise InvalidOptions("--names must all be different")
        return given
    bases = [kind.split(":")[0] for kind in seats]  # a bot spec may carry parameters
    result = []
    for seat, base in enumerate(bases):
        same = [s for s, b in enumerate(bases) if b == base]
        if base == HUMAN:
            result.append(YOU if len(same) == 1 else f"Player {same.index(seat) + 1}")
        else:
            result.append(base if len(same) == 1 else f"{base} {same.index(seat) + 1}")
    return result


def bot_seeds(seed: int, count: int) -> list[int]:
    """A seed for each seat's bot, derived from the game seed (so a seed replays the bots too)."""
    derive = random.Random(f"spieltisch-bots-{seed}")
    return [derive.randrange(2**32) for _ in range(count)]


Picture = Callable[[Any, Any], str | None]
"""Called with each action and the state after it; draws a picture (or not) and returns None,
or why the picture could not be drawn."""


class PlaySession:
    """One game at the terminal, from the first roll to the scores."""

    def __init__(
        self,
        game: Game[Any, Any],
        seats: Sequence[str],
        names: Sequence[str],
        console: Console,
        seed: int,
        save: Path | None = None,
        picture: Picture | None = None,
    ) -> None:
        from spieltisch.bots.base import make_bot
        from spieltisch.cli.present import presenter_for

        self.game = game
        self.picture = picture
        self.seats = list(seats)
        self.names = list(names)
        self.console = console
        self.seed = seed
        self.save_path = save
        self.presenter = presenter_for(game, names)
        self.presenter.style = console.style
        self.dice = random.Random(seed)
        seeds = bot_seeds(seed, len(seats))
        self.bots: dict[int, Bot] = {
            seat: make_bot(game, kind, seeds[seat])
            for seat, kind in enumerate(seats)
            if kind != HUMAN
        }
        self.state: Any = game.new_state()
        meta = {"seats": list(seats), "client": "terminal"}
        self.record = GameRecord(
            game.name, game.options_json(), game.rules_version, (), seed, tuple(names), meta
        )
        self.resumed: int | None = None  # moves already played when resuming a record
        self._shown: Any = None  # the state last drawn on the board
        self._save_failed = False

    def resume(self, record: GameRecord, states: Sequence[Any]) -> None:
        """Continue `record` (its `states` replayed): the dice and the bots' generators are
        advanced through the recorded moves, so the game goes on as it would have."""
        for before in states[:-1]:
            mover = self.game.to_move(before)
            if mover == CHANCE:
                self.game.sample_chance(before, self.dice)
            elif mover in self.bots:
                self.bots[mover].choose(before)
        self.state = states[-1]
        meta = {**record.meta, "seats": self.seats}
        self.record = replace(record, players=tuple(self.names), meta=meta)
        self.resumed = len(record.actions)

    # --- output -------------------------------------------------------------------------
    def write(self, text: str = "", *styles: str) -> None:
        self.console.write(self.console.style(text, *styles))

    def show_board(self) -> None:
        self.write()
        self.write(self.presenter.board(self.state))
        self._shown = self.state

    # --- the game ---------------------------------------------------------------------------
    def play(self) -> int:
        """Play to the end; returns the exit status (0, or 130 after Ctrl-C)."""
        self.intro()
        try:
            return self._loop()
        except EOFError:
            self.write()
            self.write("Input ended: the game is left unfinished.", "yellow")
            self._goodbye()
            return 0
        except KeyboardInterrupt:
            self.write()
            self.write("Interrupted: the game is left unfinished.", "yellow")
            self._goodbye()
            return 130

    def intro(self) -> None:
        seats = ", ".join(
            name if kind in (HUMAN, name) else f"{name} ({kind})"
            for name, kind in zip(self.names, self.seats, strict=True)
        )
        self.write(f"{self.game.title} · {seats}", "bold")
        if self.resumed is not None:
            self.write(f"Resuming after {self.resumed} moves", "dim")
        else:
            self.write(
                f"Seed {self.seed} (play the same dice again with --seed {self.seed})", "dim"
            )
        if self.save_path is not None:
            self.write(f"Saving every move to {self.save_path}", "dim")
        if HUMAN in self.seats:
            self.write("Type 'help' for the commands.", "dim")

    def _loop(self) -> int:
        while (mover := self.game.to_move(self.state)) is not None:
            if mover == CHANCE:
                action = self.game.sample_chance(self.state, self.dice)
            elif mover in self.bots:
                action = self.bots[mover].choose(self.state)
            else:
                action = self.ask(mover)
                if action is None:
                    return self.quit()
            printed = self.step(action)
            if printed and not self._human_next():
                self.console.pause()
        self.finish()
        return 0

    def _human_next(self) -> bool:
        mover = self.game.to_move(self.state)
        return mover is not None and mover != CHANCE and mover not in self.bots

    def step(self, action: Any) -> int:
        """Apply `action`, tell what it did, save; returns how many lines were printed."""
        before = self.state
        self.state = self.game.apply(before, action)
        self.record = self.record.with_action(self.game, action)
        self._autosave()
        lines: list[LogLine] = self.presenter.log(before, action, self.state)
        for line in lines:
            self.console.pause(line.pause)
            self.write(line.text, *_TONES.get(line.tone, ()))
        return len(lines) + self._draw(action)

    def _draw(self, action: Any) -> int:
        """Draw the picture after `action` if asked to; stops drawing after the first
        failure, which is told once. Returns how many lines were printed."""
        if self.picture is None:
            return 0
        problem = self.picture(action, self.state)
        if problem is None:
            return 0
        self.picture = None
        self.write(f"  no more pictures: {problem}", "red")
        return 1

    # --- a person's move ------------------------------------------------------------------
    def ask(self, seat: int) -> Any | None:
        """Read commands until a legal action is chosen; None when the player quits."""
        if self._shown is not self.state:
            self.show_board()
        pending: Any | None = None
        while True:
            line = self.console.ask(self.presenter.prompt(self.state, seat))
            word = line.lower()
            if not word:
                continue
            if len(line) > MAX_LINE:
                self.write(f"  that line is too long ({len(line)} characters); type 'help'", "red")
                continue
            if pending is not None and word in _YES:
                return pending
            if pending is not None and word in _NO:
                self.write("  not played; choose again")
                pending = None
                continue
            if word in _COMMANDS and not self._plays(line):  # at a card prompt 'b' is blueberry
                if word in _QUIT:
                    return None
                self._command(word)
                continue
            action, confirm = self._read_action(line)
            if action is not None and not confirm:
                return action
            pending = action if confirm else None

    def _command(self, word: str) -> None:
        if word in _HELP:
            self.show_help()
        elif word in _ODDS:
            self.show_odds()
        else:
            self.show_board()

    def _plays(self, line: str) -> bool:
        """Whether `line` is a legal action now (command words give way to actions)."""
        try:
            self.game.parse_action(self.state, line.rstrip("!").strip())
        except ValueError:
            return False
        return True

    def _read_action(self, line: str) -> tuple[Any | None, bool]:
        """The typed action (None after a mistake, explained) and whether to confirm it first.

        A trailing '!' plays the action without asking, e.g. 'stop!' for a failing stop.
        """
        force = line.endswith("!")
        try:
            action = self.game.parse_action(self.state, line.rstrip("!").strip())
        except ValueError as error:  # IllegalAction, with a sentence for the player
            self.write(f"  {error}", "red")
            return None, False
        warning = None if force else self.presenter.warning(self.state, action)
        for part in (warning or "").splitlines():
            self.write(f"  {part}", "yellow")
        return action, bool(warning)

    def show_help(self) -> None:
        self.write("Commands:")
        for line in self.presenter.help_lines():
            self.write(line)
        if self.presenter.has_odds:
            self.write("  odds or ?     the odds of each choice, from the solver")
        self.write("  board         show the table again")
        self.write("  help          this list")
        save = "it is saved" if self.save_path else "you may save it"
        self.write(f"  quit          leave the game ({save})")

    def show_odds(self) -> None:
        from spieltisch.cli.present import OddsUnavailableError

        try:
            lines = self.presenter.odds_lines(self.state)
        except OddsUnavailableError as error:
            self.write(f"  {error}", "yellow")
            return
        except Exception as error:  # the solver is someone else's code: never lose the game
            self.write(f"  odds are not available: {error}", "yellow")
            return
        for line in lines:
            self.write(line, "cyan")

    # --- the end ---------------------------------------------------------------------------
    def finish(self) -> None:
        self.show_board()
        self.write()
        self.write("Final scores", "bold")
        for line in self.presenter.result_lines(self.state):
            self.write(line)
        if self.save_path is not None:
            self._saved_lines()

    def quit(self) -> int:
        if self.save_path is None:
            try:
                answer = self.console.ask("Save the game? File name, or Enter to skip > ")
            except (EOFError, KeyboardInterrupt):
                answer = ""
            if answer:
                self.save_path = Path(answer)
                self._autosave()
        self._goodbye()
        return 0

    def _goodbye(self) -> None:
        if self.save_path is not None and not self._save_failed:
            self._saved_lines()
        self.write("Bye.")

    def _saved_lines(self) -> None:
        self.write(f"Saved to {self.save_path}.")
        if self.game.is_over(self.state):
            self.write(f"Replay it with: spieltisch replay {self.save_path}", "dim")
        else:
            self.write(f"Go on later with: spieltisch play --resume {self.save_path}", "dim")

    def _autosave(self) -> None:
        if self.save_path is None:
            return
        try:
            save_record(self.record, self.save_path)
            self._save_failed = False
        except OSError as error:
            if not self._save_failed:
                self.write(f"  cannot save to {self.save_path}: {error}", "red")
            self._save_failed = True


class _Table(NamedTuple):
    game: Game[Any, Any]
    seats: list[str]
    names: list[str]
    seed: int
    record: GameRecord | None = None
    states: list[Any] | None = None


def _random_seed() -> int:
    return random.SystemRandom().randrange(1_000_000)


def _checked_seats(text: str, cls: type[Game[Any, Any]]) -> list[str]:
    seats = parse_seats(text, cls.name, allow_humans=True)
    if not cls.min_players <= len(seats) <= cls.max_players:
        raise InvalidOptions(
            f"{cls.title} needs {cls.min_players} to {cls.max_players} seats, "
            f"--seats gives {len(seats)}"
        )
    return seats


def _new_table(args: argparse.Namespace) -> _Table:
    if not args.game:
        raise InvalidOptions(
            f"name the game to play ({', '.join(game_names())}), or --resume a saved one"
        )
    cls = game_class(args.game)
    seats = _checked_seats(args.seats or DEFAULT_SEATS, cls)
    names = seat_names(seats, args.names)
    game = game_from_args(args.game, seats, args.option)
    seed = args.seed if args.seed is not None else _random_seed()
    return _Table(game, seats, names, seed)


def _resumed_table(args: argparse.Namespace) -> _Table:
    record = load_record(args.resume)
    states = replay_states(record)  # checks the game, its rules and every move
    game = make_game(record.game, record.options)
    if args.game not in (None, record.game):
        raise InvalidOptions(f"{args.resume} holds a game of {record.game}, not {args.game}")
    if args.option or args.seed is not None:
        raise InvalidOptions("a resumed game keeps its options and seed")
    recorded = record.meta.get("seats")
    text = args.seats or (",".join(recorded) if isinstance(recorded, list) else None)
    if not text:
        raise InvalidOptions(f"{args.resume} does not say who sits where: give --seats")
    seats = _checked_seats(text, type(game))
    if len(seats) != game.num_players:
        raise InvalidOptions(f"the saved game has {game.num_players} seats, not {len(seats)}")
    names = seat_names(seats, args.names)
    if not args.names and len(set(record.players)) == len(record.players) == len(seats):
        names = list(record.players)
    seed = record.seed if record.seed is not None else _random_seed()
    return _Table(game, seats, names, seed, record, states)


def _picture(args: argparse.Namespace, game: Game[Any, Any]) -> Picture | None:
    """The `--png` picture writer (riffraff only)."""
    if args.png is None:
        return None
    if game.name != "riffraff":
        raise InvalidOptions(f"--png draws the ship of riffraff; {game.name} has no pictures")
    from spieltisch.cli.riffraff_cmds import placement_pictures

    return placement_pictures(args.png)


def run(args: argparse.Namespace, console: Console | None = None) -> int:
    """Set the table up from the arguments and play; errors in them exit with status 2."""
    try:
        table = _resumed_table(args) if args.resume else _new_table(args)
        picture = _picture(args, table.game)
    except KeyError as error:
        return fail(str(error.args[0]))
    except (InvalidOptions, RecordError) as error:
        return fail(str(error))
    if console is None:
        from spieltisch.cli.terminal import terminal_console

        console = terminal_console(fast=args.fast)
    elif args.fast:
        console.pace = 0
    save = args.save if args.save is not None else args.resume
    session = PlaySession(table.game, table.seats, table.names, console, table.seed, save, picture)
    if table.record is not None and table.states is not None:
        session.resume(table.record, table.states)
    if save is not None:
        try:
            save_record(session.record, save)
        except OSError as error:
            return fail(f"cannot save to {save}: {error}")
    return session.play()
