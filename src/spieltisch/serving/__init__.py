"""Each game's server hooks (`server.hooks.GameHooks`), one module per game named like the
game: what the table host does for that game beyond the game protocol. These modules may
import `server` types; the server finds them by name and never imports them itself."""
