"""E-mail for players who ask for it: "it is your turn" (batched) and a daily digest, sent
with aiosmtplib to the server of `serve --smtp URL`, each with a one-click unsubscribe link.

- `address`: the check of an address a player gives;
- `settings`: `--smtp` and the other settings;
- `store`: the address, the choices and what was sent when, in the database;
- `tokens`: the unsubscribe links;
- `texts`, `compose`: what a mail says, in the player's language;
- `sender`: the SMTP client, bounded;
- `turns`: `TurnMail`, the entry point of turn-based tables, and the sweep;
- `routes`: the account's mail settings and the unsubscribe page.
"""
