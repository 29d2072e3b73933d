"""What a failure a user can cause is called, and the exit codes the commands give: shared
by the libraries (which raise) and the commands (which put it into one line and exit)."""

from __future__ import annotations

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UserError(Exception):
    """A failure the user can mend (a bad option, an unwritable path), in one line, with
    the exit code it gives: ``EXIT_USAGE`` for a bad option, else ``EXIT_ERROR``."""

    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
