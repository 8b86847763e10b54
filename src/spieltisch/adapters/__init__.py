"""Adapters to the standard game-AI interfaces: PettingZoo, Gymnasium and OpenSpiel.

Each adapter lives in its own module and imports its third-party package only when that module
is imported, so the core package works without the optional extra `spieltisch[rl]`:

- `spieltisch.adapters.encoding`: how a game's actions map to integers and its positions to
  observation vectors (standard library only; one encoder per game in `encoders/`).
- `spieltisch.adapters.pettingzoo`: multi-agent AEC environments.
- `spieltisch.adapters.gymnasium`: one seat against spieltisch bots.
- `spieltisch.adapters.openspiel`: Pickomino and Karolinchen as OpenSpiel Python games.
"""

__all__: list[str] = []
