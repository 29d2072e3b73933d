"""storyteller: a journaling companion for solitaire card games."""

__version__ = "0.1.0"
