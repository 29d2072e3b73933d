"""Templates are code from strangers: every template runs in Jinja2's immutable sandbox with
only the export context, and a template that tries to escape or runs away is stopped with
one line naming the template and its line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storyteller.telling import export
from storyteller.telling import sandbox

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "examples" / "carddom-won.jsonl"  # exports only read it


def export_with(cli, tmp_path, source: str, name: str = "shared.md.j2"):
    tpl = tmp_path / name
    tpl.write_text(source, encoding="utf-8")
    out = tmp_path / f"{name}.out.md"
    r = cli("export", LOG, "--template", tpl, "-o", out)
    return r, tpl, out


def test_every_template_gets_the_immutable_sandbox_with_only_range():
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    env = export.RENDERERS["markdown"].environment([ROOT / "templates"])
    assert isinstance(env, ImmutableSandboxedEnvironment)
    assert set(env.globals) == {"range"}


# Each payload, if it worked, would run a command (touching MARKER), read SECRET, write a
# file, or show Python's internals; {marker}, {secret} and {written} are filled in.
ESCAPES = [
    "{{{{ lipsum.__globals__['os'].popen('touch {marker}').read() }}}}",
    "{{{{ cycler.__init__.__globals__.os.popen('touch {marker}').read() }}}}",
    "{{{{ joiner.__init__.__globals__.os.system('touch {marker}') }}}}",
    "{{{{ namespace.__init__.__globals__.os.system('touch {marker}') }}}}",
    "{{{{ self.__init__.__globals__['__builtins__']['open']('{secret}').read() }}}}",
    "{{{{ self._TemplateReference__context.cycler.__init__.__globals__.os.system('touch {marker}') }}}}",
    "{{{{ __builtins__.open('{secret}').read() }}}}",
    "{{{{ ''.__class__.__mro__[1].__subclasses__() }}}}",
    "{{{{ ''|attr('__class__')|attr('__mro__') }}}}",
    "{{{{ (''|attr('__class__')).__base__.__subclasses__() }}}}",
    "{{{{ '{{0.__class__.__mro__}}'.format('') }}}}",
    "{{{{ '{{0.__class__.__init__.__globals__}}'|attr('format')(meta) }}}}",
    "{{% set f = '{{0.__class__}}'.format %}}{{{{ f('') }}}}",
    "{{{{ '%s' % meta.__class__.__init__.__globals__ }}}}",
    "{{{{ steps.__class__.__base__.__subclasses__() }}}}",
    "{{{{ range.__globals__['__builtins__'] }}}}",
    "{{{{ meta.get.__self__.__class__ }}}}",
    "{{{{ steps.pop() }}}}{{{{ meta.update({{'seed': 'x'}}) }}}}",
    "{{{{ ''.encode('utf-8').decode.__globals__ }}}}",
    "{{{{ (1).to_bytes(10, 'big') }}}}",
    "{{{{ meta.fromkeys(range(3)) }}}}",
    "{{{{ dict(a=1) }}}}",
    "{{{{ config.__class__.__init__.__globals__['os'] }}}}",
    "{{% include '{secret}' %}}",
    "{{% include '../../../../../../../../../../{secret}' %}}",
    "{{% include 'secret.txt' %}}",
    "{{% for x in range(1) %}}{{{{ loop.cycle.__func__.__globals__ }}}}{{% endfor %}}",
    "{{% macro m() %}}{{{{ caller.__globals__ }}}}{{% endmacro %}}{{% call m() %}}x{{% endcall %}}",
    "{{% from '_macros.md.j2' import entry %}}{{{{ entry._func.__globals__ }}}}",
    "{{{{ (steps|groupby('kind'))[0]._asdict() }}}}",
    "{{{{ meta|attr('items')|attr('__self__') }}}}",
]


@pytest.mark.parametrize("payload", ESCAPES)
def test_an_escape_is_one_line_naming_the_template_and_line_and_does_nothing(cli, tmp_path, payload):
    marker = tmp_path / "PWNED"
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-WORDS", encoding="utf-8")
    source = "# My export\n\n" + payload.format(marker=marker, secret=secret, written=tmp_path / "w") + "\n"
    r, tpl, out = export_with(cli, tmp_path, source)
    assert r.code == 1, r.out
    assert r.err.count("\n") == 1 and r.err.startswith("storyteller: ")
    assert f"{tpl}: line 3: " in r.err, r.err
    assert not marker.exists() and not out.exists()
    assert "SECRET-WORDS" not in r.out + r.err
    assert "<class" not in r.err and "<module" not in r.err and "<function" not in r.err


def test_an_unsafe_access_says_what_was_refused(cli, tmp_path):
    r, tpl, _ = export_with(cli, tmp_path, "ok\n{{ meta.title }}\n{{ ''.__class__ }}\n")
    assert r.err == (f"storyteller: {tpl}: line 3: not allowed in a template: "
                     "access to attribute '__class__' of 'str' object is unsafe.\n")
    r, tpl, _ = export_with(cli, tmp_path, "{{ 'x'.encode() }}\n")
    assert r.err == f"storyteller: {tpl}: line 1: not allowed in a template: a template may not call str.encode()\n"


def test_a_failure_inside_a_shared_macro_names_both_templates(cli, tmp_path):
    source = '{% import "_macros.md.j2" as m %}\n\n{{ m.front_matter({"title": "x"}) }}\n'
    r, tpl, _ = export_with(cli, tmp_path, source)
    assert r.code == 1 and r.err.count("\n") == 1
    assert "_macros.md.j2: line 5" in r.err and f"(from {tpl}, line 3)" in r.err
    assert "'dict object' has no attribute 'game'" in r.err


def test_what_a_template_author_needs_still_works(cli, tmp_path):
    source = """{% import "_macros.md.j2" as m %}
{% macro row(k, v) %}| {{ k }} | {{ v }} |{% endmacro %}
{{ row("Seed", meta.seed | code | cell) }}
{{ meta.game | upper }} {{ meta.tags | join(", ") }} {{ meta.tags | join_and }}
{% for s in steps | selectattr("kind", "equalto", "decision") %}{% if loop.first %}{{ s.text }}{% endif %}{% endfor %}

{{ "%-6s|" | format(meta.outcome) }} {{ "{:>4}".format(meta.decisions) }} {{ "-" * 5 }} {{ meta.game ~ "!" }} {{ 2 ** 10 }}
{{ range(3) | map("string") | join("+") }} {{ meta.title.split(" ") | length }} {{ meta.variants.items() | list | length }}
{{ journal | map(attribute="text") | first | truncate(12) }} {{ "a b" | replace(" ", "_") | center(7) }}|
{{ m.replay_line(meta) }}
"""  # noqa: E501 (a template's lines, each the line of output the test expects)
    r, _tpl, out = export_with(cli, tmp_path, source)
    assert r.code == 0, r.err
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines == [
        "| Seed | `29` |",
        "CARDDOM storyteller, carddom, won storyteller, carddom and won",
        "Enter the realm at the front right stack (2)",
        "won   |   11 ----- carddom! 1024",
        "0+1+2 4 2",
        "I am...   a_b  |",
        "`storyteller play carddom --seed 29`",
    ]


def test_an_include_reads_only_templates(cli, tmp_path):
    (tmp_path / "notes.txt").write_text("PRIVATE", encoding="utf-8")
    (tmp_path / "part.md.j2").write_text("from a part: {{ meta.game }}", encoding="utf-8")
    r, _tpl, out = export_with(cli, tmp_path, "{% include 'part.md.j2' %}\n")
    assert r.code == 0 and out.read_text() == "from a part: carddom"
    r, _tpl, out = export_with(cli, tmp_path, "{% include 'notes.txt' %}\n", "other.md.j2")
    assert r.code == 1 and "template not found: notes.txt" in r.err and "PRIVATE" not in r.err + r.out


def test_a_huge_template_file_is_refused(cli, tmp_path):
    r, _tpl, out = export_with(cli, tmp_path, "x" * (sandbox.MAX_TEMPLATE_BYTES + 1))
    assert r.code == 1 and r.err.count("\n") == 1 and "larger than" in r.err and not out.exists()


def test_an_imported_templates_body_is_sized_before_it_is_shown(cli, tmp_path):
    # 100,000 copies of a 2,000-character line: 200 million characters once joined
    (tmp_path / "body.j2").write_text("{% for i in range(100000) %}" + "x" * 2000 + "{% endfor %}")
    for shown in ("{{ m }}", "{{ m ~ '' }}", "{{ m | string | length }}"):
        r, tpl, out = export_with(cli, tmp_path, "{% import 'body.j2' as m %}\n" + shown + "\n")
        assert r.code == 1 and r.err.startswith(f"storyteller: {tpl}: line 2: template stopped: ")
        assert "more than" in r.err and not out.exists()


# -- runaway templates -------------------------------------------------------------------

# (payload, what stops it): every one would otherwise take hours or gigabytes.
RUNAWAYS = [
    ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", "ran longer"),
    ("{% for i in range(100000) %}{% for j in range(100000) %}{{ j }}{% endfor %}{% endfor %}", "ran longer"),
    ("{% for i in range(100000) %}{% for j in range(100000) %}" + "x" * 500 + "{% endfor %}{% endfor %}",
     "writes more than"),
    ("{{ 'x' * 10**9 }}", "more than"),
    ("{{ '{:>999999999}'.format(1) }}", "more than"),
    ("{{ '{:.999999999f}'.format(1.5) }}", "more than"),
    ("{{ '{:{}}'.format(1, 999999999) }}", "more than"),
    ("{{ 2 ** (10 ** 8) }}", "bits"),
    ("{{ 10 ** 100000 }}", "bits"),
    ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "calls itself too deeply"),
    ("{% for x in range(10) recursive %}{{ loop(range(10)) }}{% endfor %}", "calls itself too deeply"),
    ("{% macro f(n) %}{% if n %}{{ f(n-1) }}{{ f(n-1) }}{% else %}x{% endif %}{% endmacro %}{{ f(60) }}", "ran longer"),
    ("{% macro d(s, n) %}{% if n %}{{ d(s ~ s, n - 1) }}{% else %}{{ s|length }}{% endif %}{% endmacro %}"
     "{{ d('x', 40) }}", "more than"),
    ("{% macro d(s, n) %}{% if n %}{{ d(s + s, n - 1) }}{% else %}{{ s|length }}{% endif %}{% endmacro %}"
     "{{ d('x', 40) }}", "more than"),
    ("{% macro n(k) %}{% if k %}{% set s = n(k - 1) %}{{ s }}{{ s }}{% else %}x{% endif %}{% endmacro %}"
     "{{ n(40)|length }}", "more than"),
    ("{% macro two(s) %}{{ s }}{{ s }}{% endmacro %}{{ " + "two(" * 40 + "'x'" + ")" * 40 + " | length }}",
     "more than"),
    ("{{ 'x'.center(10**9) }}", "more than"),
    ("{{ 'x'|center(10**9) }}", "more than"),
    ("{{ 'x'.ljust(10**9) }}", "more than"),
    ("{{ ('\t' * 100000).expandtabs(100000) }}", "more than"),
    ("{{ '%999999999d' % 1 }}", "more than"),
    ("{{ '%*d' % (999999999, 1) }}", "more than"),
    ("{{ '%999999999d'|format(1) }}", "more than"),
    ("{{ range(100000)|join(range(100000)|join) }}", "more than"),
    ("{{ ('x' * 1000)|replace('', 'y' * 100000) }}", "more than"),
    ("{{ ('x' * 1000).replace('', 'y' * 100000) }}", "more than"),
    ("{{ [range(100000)|list] * 100000 }}", "more than"),
    ("{{ ([range(100000)|list] * 100000)|tojson|length }}", "more than"),
    ("{{ '{}'.format([range(100000)|list] * 100000) }}", "more than"),
    ("{{ range(100000)|map(attribute='nope')|map('default', range(100000)|list)|list }}", "more than"),
    ("{{ ('x\\n' * 100000)|indent(100000) }}", "more than"),
    ("{{ range(10)|batch(10**9, 'x')|list }}", "more than"),
    ("{{ range(5)|slice(10**9)|list }}", "more than"),
    ("{% for i in range(100000) %}{{ ('x' * 10**6)|length }}{% endfor %}", "made more than"),
    ("{{ ('9' * 100000)|int }}", "digits"),
    ("{% filter upper %}{% for i in range(100000) %}{% for j in range(100) %}xxxxxxxxxxxxxxxxxxxx{% endfor %}"
     "{% endfor %}{% endfilter %}", "ran longer"),
]

RUN_ALL = """
import json, sys, time
from pathlib import Path
try:
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))  # a guard that fails must not take the machine
except (ImportError, ValueError, OSError):
    pass
from storyteller.telling import export
from storyteller.telling import sandbox
from storyteller.log.file import read
log = read(Path(sys.argv[1]))
folder = Path(sys.argv[2])
results = []
for i, (source, limit) in enumerate(json.loads(sys.stdin.read())):
    sandbox.TIME_LIMIT = limit
    tpl = folder / f"runaway{i}.md.j2"
    tpl.write_text("first line\\n" + source + "\\n", encoding="utf-8")
    start = time.perf_counter()
    tracer = sys.gettrace()
    try:
        export.render(log, "story", tpl)
        message = None
    except export.TemplateProblem as e:
        message = str(e)
    results.append({"template": str(tpl), "message": message, "seconds": time.perf_counter() - start,
                    "tracer kept": sys.gettrace() is tracer})
print(json.dumps(results))
"""

LIMIT = 0.4  # seconds, for the suite; the default limit is checked from the command line below
# A payload that another guard must stop (size, bits, depth) runs with time to spare, so
# that a busy machine cannot let the clock stop it first and hide a missing guard.
SPARE = 8.0


def limit_for(why: str) -> float:
    return LIMIT if why == "ran longer" else SPARE


@pytest.fixture(scope="module")
def runaway_results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runaway")
    r = subprocess.run(
        [sys.executable, "-c", RUN_ALL, str(LOG), str(folder)],
        input=json.dumps([(p, limit_for(why)) for p, why in RUNAWAYS]), capture_output=True, text=True, timeout=300,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


@pytest.mark.parametrize("index", range(len(RUNAWAYS)), ids=[p[:60] for p, _ in RUNAWAYS])
def test_a_runaway_template_stops_with_one_line_naming_it(runaway_results, index):
    payload, why = RUNAWAYS[index]
    got = runaway_results[index]
    message = got["message"]
    assert message is not None, f"{payload} rendered"
    assert "\n" not in message and message.startswith(f"{got['template']}: line 2: template stopped: ")
    assert why in message and "out of memory" not in message
    assert got["seconds"] < (LIMIT + 1.5 if why == "ran longer" else 5.0), f"{payload} took {got['seconds']:.1f} s"
    assert got["tracer kept"]


def test_a_runaway_stops_within_a_couple_of_seconds_from_the_command_line(tmp_path):
    tpl = tmp_path / "loop.md.j2"
    tpl.write_text("{% for i in range(100000) %}{% for j in range(100000) %}{{ i }}{% endfor %}{% endfor %}\n")
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "storyteller", "export", str(LOG), "--template", str(tpl)],
                       capture_output=True, text=True, timeout=60, env=dict(os.environ, STORYTELLER_HOME=str(tmp_path)))
    took = time.monotonic() - start
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr == (f"storyteller: {tpl}: line 1: template stopped: "
                        f"it ran longer than {sandbox.TIME_LIMIT:g} seconds\n")
    assert took < sandbox.TIME_LIMIT + 3


def test_the_previous_tracer_is_put_back(tmp_path):
    from storyteller.log.file import read

    calls = []

    def tracer(frame, event, arg):
        calls.append(event)
        return None

    tpl = tmp_path / "t.md.j2"
    tpl.write_text("{{ meta.game }}")
    sys.settrace(tracer)
    try:
        assert export.render(read(LOG), "story", tpl) == "carddom"
        assert sys.gettrace() is tracer
    finally:
        sys.settrace(None)
