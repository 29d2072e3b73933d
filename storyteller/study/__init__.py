"""Many games at once: unattended play on every core, solving deals, where a game turned,
and the statistics of the saved games."""
