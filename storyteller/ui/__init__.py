"""Who decides and what they see: the player at a terminal (the guided session, the games'
views, the reports), an answers file, or a built-in player."""
