"""Every game of the table, one package each, named as the game. The registry imports a
package only when its game is asked for, so a command that needs one game loads only it."""

GAME_PACKAGES = ("karolinchen", "pickomino", "riffraff")

__all__ = ["GAME_PACKAGES"]
