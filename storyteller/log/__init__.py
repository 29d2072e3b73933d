"""The event log: the typed events a game is made of, the append-only file they are kept in,
the one replay that turns a log into the game's steps, and where saved logs live."""
