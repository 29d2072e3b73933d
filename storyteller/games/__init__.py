"""The four games that come with storyteller, one package each, laid out as any other
package's game would be: ``__init__.py`` holds the game's registration, ``rules.py`` its
rules, ``players.py`` and ``solver.py`` its built-in players and its solver, ``story.py``
its teller and ``view.py`` its terminal view (with ``core.py`` for a fast inner form of the
rules and ``search.py`` for a search player, where a game has them). The words live in
``prompts/<game>.json`` and ``templates/<game>/``."""
