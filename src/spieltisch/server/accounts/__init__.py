"""Players' accounts: user names, passwords and their checks (no I/O; storage is the server's)."""
