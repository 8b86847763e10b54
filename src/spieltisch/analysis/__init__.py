"""Analysis: simulations of many bot games, with win rates and game statistics.

The modules are imported one by one (`spieltisch.analysis.simulate`, ...): the package itself
loads nothing, so a command that needs one of them does not load the others."""
