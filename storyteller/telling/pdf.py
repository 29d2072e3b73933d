"""A page printed to PDF through a browser already on the machine: Chromium or Chrome,
headless, with ``--print-to-pdf``. storyteller depends on no PDF library: the HTML page is
the document, the browser lays it out as it would for a reader's own Print, with the
page's print rules (paper size, margins, nothing split across pages).

Which browser: ``STORYTELLER_BROWSER`` (a command or a path) if set, else the first of the
usual names on ``PATH``, else the usual install places on macOS and Windows."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "microsoft-edge",
         "msedge")
PLACES = (
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
    r"C:\Program Files\Google\Chrome\Application\chrome.exe",
    r"C:\Program Files (x86)\Google\Chrome\Application\chrome.exe",
    r"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe",
)
TIMEOUT = 120.0  # seconds: a page of a few hundred kilobytes prints in two or three


class PdfProblem(Exception):
    """The page could not be printed; the message is one line for the player."""


def find_browser() -> str | None:
    """The browser to print with, or None when the machine has none we know."""
    chosen = os.environ.get("STORYTELLER_BROWSER", "").strip()
    if chosen:
        return shutil.which(chosen) or (chosen if Path(chosen).is_file() else None)
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    for place in PLACES:
        if Path(place).is_file():
            return place
    return None


def no_browser(html_command: str) -> str:
    """What to do instead, in one line."""
    return (f"no Chromium or Chrome found to print with (set STORYTELLER_BROWSER to one): write the page as HTML "
            f"with {html_command}, open it in your browser and print it to PDF from there")


def print_pdf(html: str, browser: str, timeout: float = TIMEOUT) -> bytes:
    """The HTML page printed by ``browser``: the PDF's bytes. The browser is first started as
    one process (``--single-process``: about a quarter faster to start, the most of a PDF's
    time); a browser that cannot print so is asked again the usual way."""
    with tempfile.TemporaryDirectory(prefix="storyteller-pdf-") as tmp:
        page = Path(tmp) / "page.html"
        page.write_text(html, encoding="utf-8")
        try:
            return _print(page, browser, timeout, Path(tmp) / "one", single=True)
        except PdfProblem as first:
            if "took more than" in str(first):
                raise
            return _print(page, browser, timeout, Path(tmp) / "usual", single=False)


def _print(page: Path, browser: str, timeout: float, folder: Path, single: bool) -> bytes:
    folder.mkdir()
    out = folder / "page.pdf"
    args = [
        browser, "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
        "--disable-extensions", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-quic", "--mute-audio", f"--user-data-dir={folder / 'profile'}",
        "--no-pdf-header-footer", "--print-to-pdf-no-header", f"--print-to-pdf={out}", page.as_uri(),
    ]
    if sys.platform != "win32" and os.geteuid() == 0:
        args.insert(2, "--no-sandbox")  # Chromium will not start as root with its sandbox
        if single:
            args.insert(3, "--no-zygote")  # (one process has no zygote to fork from; only without the sandbox)
    if single:
        args.insert(2, "--single-process")
    try:
        done = subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise PdfProblem(f"the browser took more than {timeout:.0f} s to print the page") from None
    except OSError as e:
        raise PdfProblem(f"{browser}: cannot run it ({e.strerror or e})") from None
    data = out.read_bytes() if out.is_file() else b""
    if not data.startswith(b"%PDF"):
        said = next((line for line in reversed(done.stderr.decode("utf-8", "replace").splitlines())
                     if line.strip()), "")
        said = f": {said[:160]}" if said else ""
        raise PdfProblem(f"{Path(browser).name} printed no PDF (exit {done.returncode}{said})")
    return data
