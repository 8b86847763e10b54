"""The terminal client and commands."""
