"""Issue 29's measure, outside the suite: ``python tests/pictures_measure.py [--shots DIR]
[--only NAME] [--kind story|playthrough|both]``.

For every example page (the story, and with ``--kind both`` the playthrough too), in
headless Chromium (``tests/browser.py``):

- the smallest text in its pictures, in CSS pixels, on a page 800 px wide and 390 px wide
  (a phone), and how many card names cross their card;
- axe-core's violations (``npm install --prefix tests/.node axe-core``);
- printed on A5 (the PDF export's own print rules): the page count, the smallest word in
  points and the share of words under 6.5 pt (poppler's ``pdftohtml -xml``), and the blank
  share of each page but the last (``pdftoppm``);
- with ``--shots DIR``: screenshots in light, dark and at phone width, and the A5 pages as
  PNG, to look at.

Then the time of ``storyteller export LOG --story --format pdf`` of the Carddom journal."""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from browser import Browser, axe, axe_source, pdf_pages, pdf_words, picture_text  # noqa: E402


def main() -> None:
    args = sys.argv[1:]
    shots = Path(args[args.index("--shots") + 1]) if "--shots" in args else None
    only = args[args.index("--only") + 1] if "--only" in args else None
    kind = args[args.index("--kind") + 1] if "--kind" in args else "story"
    kinds = ["story", "playthrough"] if kind == "both" else [kind]
    from storyteller.log.file import read
    from storyteller.telling.export import render

    source = axe_source()
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    logs = sorted((ROOT / "examples").glob("*.jsonl"))
    if only:
        logs = [p for p in logs if p.stem == only]
    rows = []
    with tempfile.TemporaryDirectory() as tmp, Browser() as b:
        for log in logs:
            for k in kinds:
                page = Path(tmp) / f"{log.stem}.{k}.html"
                page.write_text(render(read(log), k, format="html"), encoding="utf-8")
                row: dict = {"page": f"{log.stem} {k}"}
                tab = b.open(page, width=800)
                wide = picture_text(tab)
                row["px800"] = wide["smallest"][0] if wide["smallest"] else None
                row["word800"] = wide["smallest"][1] if wide["smallest"] else ""
                row["under11"] = sum(1 for s in wide["sizes"] if s < 11)
                row["texts"] = len(wide["sizes"])
                row["crossing"] = len(wide["crossing"])
                row["overlapping"] = len(wide["overlapping"])
                row["outside"] = len(wide["outside"])
                row["overlaps"] = wide["overlapping"][:4] + [["outside", t] for t in wide["outside"][:2]]
                if source:
                    found = axe(tab, source)
                    row["axe"] = {v["id"]: v["nodes"] for v in found}
                if shots:
                    (shots / f"{log.stem}.{k}.light.png").write_bytes(tab.screenshot())
                tab.size(390, 900)
                narrow = picture_text(tab)
                row["px390"] = narrow["smallest"][0] if narrow["smallest"] else None
                row["scroll390"] = tab.evaluate("document.documentElement.scrollWidth")
                if shots:
                    (shots / f"{log.stem}.{k}.phone.png").write_bytes(tab.screenshot())
                    tab.size(800, 1000)
                    tab.media(dark=True)
                    (shots / f"{log.stem}.{k}.dark.png").write_bytes(tab.screenshot())
                    tab.media()
                pdf = tab.pdf()
                words = pdf_words(pdf)
                pages = pdf_pages(pdf)
                row["pages"] = len(pages)
                row["min_pt"] = min(w["size"] for w in words) if words else None
                row["under6.5"] = sum(1 for w in words if w["size"] < 6.5) / max(1, len(words))
                row["blank"] = [p["blank"] for p in pages[:-1]]
                if shots:
                    out = shots / f"{log.stem}.{k}.a5.pdf"
                    out.write_bytes(pdf)
                    subprocess.run(["pdftoppm", "-png", "-r", "60", str(out), str(shots / f"{log.stem}.{k}.a5")],
                                   check=True)
                tab.close()
                rows.append(row)
                print(line(row), flush=True)
    print()
    worst = {key: (min if key != "under6.5" else max)(r[key] for r in rows if r.get(key) is not None)
             for key in ("px800", "px390", "min_pt", "under6.5")}
    print(f"all pages: smallest picture text {worst['px800']:.1f} px at 800, {worst['px390']:.1f} px at 390; "
          f"smallest printed word {worst['min_pt']:.1f} pt; at most {worst['under6.5']:.0%} of a page's words "
          f"under 6.5 pt; most blank page but the last {max(max(r['blank'], default=0) for r in rows):.0%}; "
          f"axe violations {sum(sum(r.get('axe', {}).values()) for r in rows)} nodes on "
          f"{sum(1 for r in rows if r.get('axe'))} pages; names crossing their card "
          f"{sum(r['crossing'] for r in rows)}; words overlapping {sum(r['overlapping'] for r in rows)}; words outside "
          f"their picture {sum(r['outside'] for r in rows)}")
    if not only or only == "carddom-journal":
        took = pdf_time(ROOT / "examples" / "carddom-journal.jsonl")
        print(f"PDF export of carddom-journal, median of 5: {took:.2f} s")


def line(r: dict) -> str:
    axe_words = ", ".join(f"{k} {n}" for k, n in sorted(r.get("axe", {}).items())) or "none"
    return (f"{r['page']:32} 800px min {r['px800']:5.1f} px ({r['word800'][:18]!r}, {r['under11']}/{r['texts']} "
            f"under 11) | 390px min {r['px390']:4.1f} px, page {r['scroll390']} px wide | A5 {r['pages']:2} pages, "
            f"min {r['min_pt']:.1f} pt, {r['under6.5']:.0%} under 6.5 pt, blank "
            f"{' '.join(f'{b:.0%}' for b in r['blank'])} | crossing {r['crossing']} overlapping {r['overlapping']} "
            f"outside {r['outside']} | axe {axe_words}" + (f"\n    e.g. {r['overlaps']}" if r["overlaps"] else ""))


def pdf_time(log: Path, runs: int = 5) -> float:
    script = Path(sys.executable).parent / "storyteller"
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            start = time.perf_counter()
            subprocess.run([str(script), "export", str(log), "--story", "--format", "pdf", "-o",
                            str(Path(tmp) / f"{i}.pdf")], check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


if __name__ == "__main__":
    main()
