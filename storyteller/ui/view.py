"""The shape of a game's terminal view: its table, and its menu of moves.

A view is made by the game's registration; it may group the legal moves into small
dialogs (Adaman: the target first, then the resources). A grouped entry is a callable
``(term, session) -> Action | None`` (None goes back to the menu).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from storyteller.core.engine import Action
    from storyteller.registry import Registration


class View:
    def __init__(self, registration: Registration) -> None:
        self.registration = registration
        self.rules = registration.rules
        self.teller = registration.teller

    def table(self, state: Any, term: Any) -> Any:
        """A rich renderable of the whole table, as the player needs to see it."""
        raise NotImplementedError

    def menu(self, state: Any, legal: list[Action], term: Any) -> list[tuple[str, Any]]:
        """The menu's entries: (title, Action or dialog). By default, every legal move."""
        return [(a.text, a) for a in legal]
