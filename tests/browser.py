"""A real browser for the tests and the measures: headless Chromium driven over its DevTools
protocol on a pipe (``--remote-debugging-pipe``: commands in on fd 3, answers out on fd 4,
each a JSON message ended by a NUL), with no library. One browser serves many pages, so a
test measures every example at two widths, runs axe-core in each and prints each to PDF
for the cost of one start.

    with Browser() as b:
        tab = b.open(path, width=800)
        tab.evaluate("document.title")
        tab.pdf()                     # the page printed, with its own @page size
        tab.screenshot(full=True)     # PNG bytes

Where the tools come from: the browser is storyteller's own choice (``pdf.find_browser``);
axe-core is the npm package, installed by ``npm install --prefix tests/.node axe-core``
(.ci/run does it; git ignores the folder), found by ``axe_source()``; poppler-utils'
``pdftotext`` and ``pdftoppm`` from the system (Debian: poppler-utils)."""

from __future__ import annotations

import base64
import json
import os
import re
import select
import shutil
import subprocess
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
AXE = HERE / ".node" / "node_modules" / "axe-core" / "axe.min.js"


def chromium() -> str | None:
    from storyteller.telling.pdf import find_browser

    return find_browser()


def axe_source() -> str | None:
    """axe-core's script, when installed beside the tests (or named by STORYTELLER_AXE)."""
    named = os.environ.get("STORYTELLER_AXE")
    path = Path(named) if named else AXE
    return path.read_text(encoding="utf-8") if path.is_file() else None


def poppler() -> bool:
    return bool(shutil.which("pdftotext") and shutil.which("pdftoppm"))


class BrowserProblem(Exception):
    pass


class Browser:
    """One headless Chromium, its pages driven over the DevTools protocol."""

    def __init__(self, timeout: float = 60.0) -> None:
        self.timeout = timeout
        self.profile = tempfile.TemporaryDirectory(prefix="storyteller-browser-")
        exe = chromium()
        if exe is None:
            raise BrowserProblem("no Chromium or Chrome here")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def fds() -> None:  # the child's fd 3 reads our commands, its fd 4 writes its answers
            a, b = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        args = [exe, "--headless", "--remote-debugging-pipe", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-quic", "--mute-audio",
                "--hide-scrollbars", "--allow-file-access-from-files", f"--user-data-dir={self.profile.name}",
                "about:blank"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.insert(2, "--no-sandbox")
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, preexec_fn=fds, close_fds=False)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._id = 0
        self._buffer = b""
        self._events: list[dict] = []

    # -- the protocol ---------------------------------------------------------------------------

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise BrowserProblem(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            self._events.append(reply)

    def wait_for(self, method: str, session: str | None = None) -> dict:
        for i, e in enumerate(self._events):
            if e.get("method") == method and (session is None or e.get("sessionId") == session):
                return self._events.pop(i)
        while True:
            e = self._read()
            if e.get("method") == method and (session is None or e.get("sessionId") == session):
                return e
            self._events.append(e)

    def _read(self) -> dict:
        end = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = end - time.monotonic()
            if left <= 0:
                raise BrowserProblem(f"the browser said nothing for {self.timeout:.0f} s")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    raise BrowserProblem("the browser closed its pipe")
                self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    # -- pages ------------------------------------------------------------------------------------

    def open(self, path: Path | str, width: int = 800, height: int = 1000, dark: bool = False,
             media: str = "") -> Tab:
        """A new page of ``width`` by ``height`` CSS pixels showing ``path`` (a file), loaded."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        tab = Tab(self, target, session)
        tab.send("Page.enable")
        tab.size(width, height)
        tab.media(dark=dark, media=media)
        tab.go(path)
        return tab

    def close(self) -> None:
        try:
            if self.process.poll() is None:
                try:
                    self.send("Browser.close")
                except (BrowserProblem, OSError):
                    pass
                try:
                    self.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(timeout=10)
        finally:
            for fd in (self._to_browser, self._from_browser):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self.profile.cleanup()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Tab:
    def __init__(self, browser: Browser, target: str, session: str) -> None:
        self.browser, self.target, self.session = browser, target, session

    def send(self, method: str, params: dict | None = None) -> dict:
        return self.browser.send(method, params, self.session)

    def size(self, width: int, height: int = 1000) -> None:
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def media(self, dark: bool = False, media: str = "") -> None:
        self.send("Emulation.setEmulatedMedia", {"media": media, "features": [
            {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})

    def go(self, path: Path | str) -> None:
        url = Path(path).resolve().as_uri() if not str(path).startswith(("file:", "about:", "data:")) else str(path)
        self.send("Page.navigate", {"url": url})
        self.browser.wait_for("Page.loadEventFired", self.session)

    def evaluate(self, expression: str, wait: bool = True) -> Any:
        got = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": wait,
                                             "returnByValue": True})
        if "exceptionDetails" in got:
            details = got["exceptionDetails"]
            raise BrowserProblem(details.get("exception", {}).get("description") or details.get("text"))
        return got.get("result", {}).get("value")

    def pdf(self) -> bytes:
        """The page printed as the PDF export prints it: its own @page size and margins, no
        header or footer."""
        got = self.send("Page.printToPDF", {"preferCSSPageSize": True, "displayHeaderFooter": False,
                                            "printBackground": False})
        return base64.b64decode(got["data"])

    def screenshot(self, full: bool = True) -> bytes:
        params: dict[str, Any] = {"format": "png"}
        if full:
            params["captureBeyondViewport"] = True
            metrics = self.send("Page.getLayoutMetrics")["cssContentSize"]
            params["clip"] = {"x": 0, "y": 0, "width": metrics["width"], "height": metrics["height"], "scale": 1}
        return base64.b64decode(self.send("Page.captureScreenshot", params)["data"])

    def close(self) -> None:
        self.browser.send("Target.closeTarget", {"targetId": self.target})


# -- what a reader meets, measured ------------------------------------------------------------

# The text of the pictures as drawn: each <text>'s size on the screen (its font size times
# the picture's scale), and the name of any card (a .st-name) that crosses its card.
PICTURE_TEXT = """(() => {
  const out = {sizes: [], smallest: null, crossing: [], overlapping: [], outside: []};
  for (const svg of document.querySelectorAll("figure svg")) {
    const box = svg.getBoundingClientRect();
    if (!box.width) continue;
    const view = svg.viewBox.baseVal, boxes = [];
    for (const t of svg.querySelectorAll("text")) {
      if (!t.textContent.trim()) continue;
      const b = t.getBBox();
      // the ink of a line of text: its box less the room above and below its letters
      const inner = {x: b.x + 0.5, y: b.y + b.height * 0.2, r: b.x + b.width - 0.5, bt: b.y + b.height * 0.85};
      for (const [o, other] of boxes)
        if (inner.x < o.r && o.x < inner.r && inner.y < o.bt && o.y < inner.bt)
          out.overlapping.push([other.textContent.trim(), t.textContent.trim()]);
      boxes.push([inner, t]);
      if (b.x < view.x - 0.5 || b.x + b.width > view.x + view.width + 0.5) out.outside.push(t.textContent.trim());
    }
    for (const t of svg.querySelectorAll("text")) {
      if (!t.textContent.trim()) continue;
      const m = t.getScreenCTM();
      const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      out.sizes.push(px);
      if (out.smallest === null || px < out.smallest[0]) out.smallest = [px, t.textContent.trim()];
      const card = t.closest(".st-card-group");
      if (card && t.classList.contains("st-name")) {
        const face = card.querySelector(".st-card").getBBox(), b = t.getBBox();
        if (b.x < face.x - 0.5 || b.x + b.width > face.x + face.width + 0.5 || b.y < face.y - 0.5
            || b.y + b.height > face.y + face.height + 0.5) out.crossing.push(t.textContent.trim());
      }
    }
  }
  return out;
})()"""

AXE_RUN = """axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v => ({
  id: v.id, impact: v.impact, nodes: v.nodes.length, where: v.nodes.slice(0, 3).map(n => n.target.join(" ")),
  help: v.help})))"""


def picture_text(tab: Tab) -> dict:
    return tab.evaluate(PICTURE_TEXT)


def axe(tab: Tab, source: str) -> list[dict]:
    tab.evaluate(source, wait=False)
    return tab.evaluate(AXE_RUN)


class Pdf:
    """The pages of a PDF as Chromium writes it: each page's size (points) and its text, read
    through each font's ToUnicode map (enough of the format for a test, no PDF library)."""

    def __init__(self, data: bytes) -> None:
        assert data.startswith(b"%PDF")
        self.objects: dict[int, bytes] = {}
        self.streams: dict[int, bytes] = {}
        for m in re.finditer(rb"(?m)^(\d+) 0 obj\s*", data):
            n, at = int(m.group(1)), m.end()
            if data.startswith(b"<<", at):
                end = self._dict_end(data, at)
                self.objects[n] = body = data[at:end]
                rest = data[end:end + 20].lstrip()
                if rest.startswith(b"stream"):
                    start = data.index(b"stream", end) + len(b"stream")
                    start += 2 if data[start:start + 2] == b"\r\n" else 1
                    length = int(re.search(rb"/Length (\d+)", body).group(1))
                    raw = data[start:start + length]
                    self.streams[n] = zlib.decompress(raw) if b"/FlateDecode" in body else raw
        root = self.objects[int(re.search(rb"/Root (\d+) 0 R", data).group(1))]
        self.pages = self._leaves(int(re.search(rb"/Pages (\d+) 0 R", root).group(1)))

    def _leaves(self, n: int) -> list[int]:
        body = self.objects[n]
        kids = re.search(rb"/Kids\s*\[([^\]]*)\]", body)
        if kids is None:
            return [n]
        return [leaf for k in re.findall(rb"(\d+) 0 R", kids.group(1)) for leaf in self._leaves(int(k))]

    @staticmethod
    def _dict_end(data: bytes, at: int) -> int:
        depth, i = 0, at
        while True:
            if data.startswith(b"<<", i):
                depth, i = depth + 1, i + 2
            elif data.startswith(b">>", i):
                depth, i = depth - 1, i + 2
                if depth == 0:
                    return i
            else:
                i += 1

    def _ref(self, body: bytes, key: bytes) -> bytes:
        found = re.search(rb"/" + key + rb"\s*(\d+) 0 R", body)
        return self.objects[int(found.group(1))] if found else body

    def size(self, page: int) -> tuple[float, float]:
        box = re.search(rb"/MediaBox\s*\[([^\]]*)\]", self.objects[page]).group(1).split()
        return float(box[2]), float(box[3])

    def _unicode(self, font: int) -> dict[int, str]:
        ref = re.search(rb"/ToUnicode (\d+) 0 R", self.objects[font])
        out: dict[int, str] = {}
        if ref is None:
            return out
        cmap = self.streams[int(ref.group(1))]
        for block in re.findall(rb"beginbfchar(.*?)endbfchar", cmap, re.S):
            for a, b in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
                out[int(a, 16)] = bytes.fromhex(b.decode()).decode("utf-16-be", "replace")
        for block in re.findall(rb"beginbfrange(.*?)endbfrange", cmap, re.S):
            for a, b, c in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
                first = int(c, 16)
                for k in range(int(a, 16), int(b, 16) + 1):
                    out[k] = chr(first + k - int(a, 16))
        return out

    def text(self, page: int) -> str:
        body = self.objects[page]
        resources = self._ref(body, b"Resources")
        fonts_body = self._ref(resources, b"Font")
        inner = re.search(rb"/Font\s*<<(.*?)>>", fonts_body, re.S)
        names = re.findall(rb"/(\w+)\s+(\d+) 0 R", inner.group(1) if inner else fonts_body)
        maps = {name: self._unicode(int(n)) for name, n in names}
        contents = [int(n) for n in re.findall(rb"(\d+) 0 R",
                                                re.search(rb"/Contents\s*(\[[^\]]*\]|\d+ 0 R)", body).group(1))]
        words, current = [], {}
        for n in contents:
            stream = self.streams.get(n, b"")
            for token in re.finditer(rb"/(\w+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]*)>|(ET)", stream):
                if token.group(1):
                    current = maps.get(token.group(1), {})
                elif token.group(3):
                    words.append(" ")
                else:
                    hexed = token.group(2)
                    words.extend(current.get(int(hexed[i:i + 4], 16), "") for i in range(0, len(hexed), 4))
        return re.sub(r"\s+", " ", "".join(words))

    def words(self, page: int) -> list[tuple[str, float]]:
        """The words of a page, each with its size on paper in points: the font's size times
        the vertical scale of the text and graphics matrices it is drawn with (Chromium writes text as
        ``q ... cm BT /F Tf ... Tm ... Td <..> Tj ET Q``; nested ``cm`` compose)."""
        body = self.objects[page]
        resources = self._ref(body, b"Resources")
        fonts_body = self._ref(resources, b"Font")
        inner = re.search(rb"/Font\s*<<(.*?)>>", fonts_body, re.S)
        names = re.findall(rb"/(\w+)\s+(\d+) 0 R", inner.group(1) if inner else fonts_body)
        maps = {name: self._unicode(int(n)) for name, n in names}
        contents = [int(n) for n in re.findall(rb"(\d+) 0 R",
                                                re.search(rb"/Contents\s*(\[[^\]]*\]|\d+ 0 R)", body).group(1))]
        stream = b"\n".join(self.streams.get(n, b"") for n in contents)
        ctm, stack = (1.0, 0.0, 0.0, 1.0), []
        tm, font, size, chars = (1.0, 0.0, 0.0, 1.0), {}, 0.0, []
        words: list[tuple[str, float]] = []
        operands: list[bytes] = []

        def times(a, b):  # 2 x 2 parts of PDF matrices (row vectors: a then b)
            return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                    a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3])

        def flush() -> None:
            if chars:
                m = times(tm, ctm)
                scale = (m[2] ** 2 + m[3] ** 2) ** 0.5  # the letters' height (a word set narrower keeps it)
                for word in "".join(chars).split():
                    words.append((word, round(size * scale, 2)))
                chars.clear()

        for token in re.finditer(rb"<([0-9A-Fa-f]*)>|\(((?:\\.|[^\\)])*)\)|\[|\]|/?[^\s<>\[\]()/]+", stream):
            word = token.group(0)
            if token.group(1) is not None:
                hexed = token.group(1)
                operands.append(b"<hex>")
                chars.extend(font.get(int(hexed[i:i + 4], 16), "") for i in range(0, len(hexed), 4))
            elif word in (b"q",):
                stack.append(ctm)
            elif word == b"Q":
                ctm = stack.pop() if stack else ctm
            elif word == b"cm":
                a, b_, c, d = (float(x) for x in operands[-6:-2])
                ctm = times((a, b_, c, d), ctm)
                operands.clear()
            elif word == b"Tf":
                flush()
                font, size = maps.get(operands[-2].lstrip(b"/"), {}), float(operands[-1])
                operands.clear()
            elif word == b"Tm":
                flush()
                tm = tuple(float(x) for x in operands[-6:-2])  # type: ignore[assignment]
                operands.clear()
            elif word in (b"BT", b"ET"):
                flush()
                if word == b"BT":
                    tm = (1.0, 0.0, 0.0, 1.0)
                operands.clear()
            elif word in (b"Td", b"TD", b"T*"):
                if operands and len(operands) >= 2:
                    try:
                        if abs(float(operands[-1])) > 0.01:  # a new line: a new word
                            chars.append(" ")
                    except ValueError:
                        pass
                operands.clear()
            elif word in (b"Tj", b"TJ", b"'", b'"', b"[", b"]"):
                if word in (b"Tj", b"TJ"):
                    operands.clear()
            else:
                operands.append(word)
        flush()
        return words


def pdf_words(data: bytes) -> list[dict]:
    """Every word of a PDF as printed: its page (from 1), its text and its size in points."""
    pdf = Pdf(data)
    return [{"page": k, "text": w, "size": s} for k, page in enumerate(pdf.pages, start=1) for w, s in pdf.words(page)]


def pdf_pages(data: bytes, dpi: int = 24, top_mm: float = 14, bottom_mm: float = 16) -> list[dict]:
    """Each page of a PDF rendered in grey (``pdftoppm``): its size in pixels and ``blank``,
    the share of its text block (the page less its margins, ``top_mm`` and ``bottom_mm``)
    left empty below its last ink: what a reader sees as a half-empty page."""
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "p.pdf"
        pdf.write_bytes(data)
        subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), str(pdf), str(Path(tmp) / "page")],
                       capture_output=True, timeout=120, check=True)
        pages = []
        for pgm in sorted(Path(tmp).glob("page-*.pgm"), key=lambda p: int(p.stem.split("-")[-1])):
            width, height, rows = read_pgm(pgm.read_bytes())
            top, bottom = top_mm / 25.4 * dpi, height - bottom_mm / 25.4 * dpi
            inked = [y for y, row in enumerate(rows) if min(row) < 200]
            last = inked[-1] if inked else top
            blank = min(1.0, max(0.0, (bottom - last) / (bottom - top)))
            pages.append({"width": width, "height": height, "blank": round(blank, 3)})
        return pages


def read_pgm(data: bytes) -> tuple[int, int, list[bytes]]:
    parts = data.split(maxsplit=4)
    assert parts[0] == b"P5"
    width, height = int(parts[1]), int(parts[2])
    raw = parts[4]
    return width, height, [raw[y * width:(y + 1) * width] for y in range(height)]
