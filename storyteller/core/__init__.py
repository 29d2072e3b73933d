"""The core: the shapes every game has (state, move, chance, outcome), the cards and decks,
seeded randomness, the oracle, the export formats and the small helpers for words and
errors that every layer above shares. Nothing here knows a log, a terminal or a template."""
