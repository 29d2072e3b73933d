"""A game as a person plays it: the session (a replay with a writer and a driver), the
journaling questions and the real table's cards and dice."""
