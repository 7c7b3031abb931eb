"""The pages' JavaScript stays in parts a reader can hold (issue 26 item 4), as the
Python does (tests/test_structure.py): no module of ``server/static/js`` over
``MAX_MODULE`` lines, no function over ``MAX_FUNCTION``, and no import circle among
the modules (every ``import ... from "./x.js"`` and ``export ... from "./x.js"``).

And the pages read the frame rather than derive it again (issue 26 item 3): the event
kinds a module names (a string, or a key of an object, equal to a kind some family or
role declares) are listed by module below, and the list only shrinks. What is left is
what no field of the frame says (the deck at the start, a replay's end); a phase
(``night``), a verb, a class or a title that shares a kind's name is listed too. A
seat's card and answers, a leader's cards and deaths are ``view.own``; what a private
event shows is its kind's ``shows`` in the rulebook entry.

There is no build step and no JavaScript parser here: the modules are read with a small
scanner that blanks out comments, strings, template literals and regular expressions
(keeping the lines), then matches braces. A function is a ``function`` declaration or
expression (nested ones too, each on its own), a top-level ``const f = (...) => {``,
or a method of a class; its length runs from its first line to its closing brace.

Today's known offenders are listed below, explicitly, to be emptied: a new offender
fails the test, and so does an entry that no longer offends (the list only shrinks).
"""

from __future__ import annotations

import re
from pathlib import Path

from lupus.lupusburg.events import EVENTS as LUPUSBURG_EVENTS
from lupus.village.events import EVENTS as VILLAGE_EVENTS
from lupus.village.family import FAMILY as VILLAGE
from shrinking import only_shrinks
from strongly_connected import strongly_connected

JS = Path(__file__).resolve().parent.parent / "src" / "lupus" / "server" / "static" / "js"

MAX_MODULE = 420
MAX_FUNCTION = 60

ALLOWED_MODULES: frozenset[str] = frozenset()
"""Modules over ``MAX_MODULE`` lines today (to be split)."""

ALLOWED_FUNCTIONS: frozenset[str] = frozenset()
"""Functions over ``MAX_FUNCTION`` lines today (``module.js:name``, to be cut)."""

ALLOWED_CIRCLES: frozenset[frozenset[str]] = frozenset()
"""Import circles today, each the set of modules that import each other."""

ALLOWED_KINDS: dict[str, frozenset[str]] = {
    "alerts.js": frozenset({"night"}),  # the phase
    "chat.js": frozenset({"pack"}),  # the chat's channel
    "day.js": frozenset({"captain"}),  # the title's id
    "game_parts.js": frozenset({"day", "game_over", "night"}),  # phases, a word's key
    "lobby.js": frozenset({"burgomaster"}),  # a key of the lobby's houses deal
    "leader_step.js": frozenset({"night"}),
    "lupusburg.js": frozenset(
        {"ballot", "bet", "burgomaster", "night", "peeked", "privilege", "token"}
    ),  # verbs, icons, stages
    "lupusburg_state.js": frozenset({"burgomaster"}),  # the title's id
    "outcome.js": frozenset(
        {"death", "failed_attempt", "night"}
    ),  # a class, a word's key, the phase
    "lupusburg_icons.js": frozenset({"ballot", "token"}),  # icons' names
    "pack.js": frozenset({"pack"}),
    "play.js": frozenset({"night"}),  # the phase
    "room.js": frozenset({"night", "token"}),  # the phase, the link's token
    "story.js": frozenset({"day", "night"}),  # the phases
    "timers.js": frozenset({"day", "night"}),  # the timers' keys
}
"""The event kinds each module names today (to be emptied where the frame comes to say
what they tell)."""

IMPORT = re.compile(r"""\b(?:import|export)\b[^;'"`]*?\bfrom\s*["']\./([\w./-]+\.js)["']""")
BARE_IMPORT = re.compile(r"""\bimport\s*\(?\s*["']\./([\w./-]+\.js)["']""")
FUNCTION = re.compile(r"\bfunction\b\s*\*?\s*([A-Za-z_$][\w$]*)?\s*\(")
ARROW = re.compile(
    r"^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?"
    r"(?:\([^()]*(?:\([^()]*\)[^()]*)*\)|[A-Za-z_$][\w$]*)\s*=>\s*\{",
    re.M,
)
STRING = re.compile(r"""["']([a-z_]+)["']""")
KEY = re.compile(r"^\s*([a-z_]+)\s*(?:\(|:)", re.M)
METHOD = re.compile(
    r"(?:(?:async|static|get|set)\s+)*(?:\*\s*)?(#?[A-Za-z_$][\w$]*)\s*\(",
)
CLASS = re.compile(r"\bclass\s+[A-Za-z_$][\w$]*(?:\s+extends\s+[\w$.]+)?\s*$")
KEYWORDS = frozenset({"if", "for", "while", "switch", "catch", "function", "return", "with"})
# After one of these a "/" begins a regular expression, not a division.
REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {""}
REGEX_WORDS = frozenset({"return", "typeof", "instanceof", "in", "of", "new", "delete", "void"})


def modules() -> dict[str, str]:
    """Every module's text by its file name."""
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(JS.glob("*.js"))}


def imports(text: str) -> set[str]:
    """The modules of this folder that a module's text imports or re-exports."""
    found = {match.group(1) for match in IMPORT.finditer(text)}
    found |= {match.group(1) for match in BARE_IMPORT.finditer(text)}
    return {Path(name).name for name in found}


def circles() -> list[frozenset[str]]:
    """The strongly connected parts of the import graph with two or more modules."""
    known = modules()
    graph = {name: imports(text) & set(known) for name, text in known.items()}
    return [frozenset(part) for part in strongly_connected(graph)]


def blank(text: str) -> str:
    """The text with every comment, string, template literal and regular expression
    made spaces (newlines kept): what is left is code, whose braces match."""
    out = list(text)
    i, n = 0, len(text)
    last = ""  # the last significant code character (or word) before here

    def wipe(start: int, end: int) -> None:
        for k in range(start, min(end, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            wipe(i, end)
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            wipe(i, end)
            i = end
        elif c in "'\"":
            end = string_end(text, i, c)
            wipe(i + 1, end - 1)
            i, last = end, "s"
        elif c == "`":
            end = template_end(text, i)
            wipe(i + 1, end - 1)
            i, last = end, "s"
        elif c == "/" and (last in REGEX_AFTER or last in REGEX_WORDS):
            end = regex_end(text, i)
            wipe(i + 1, end - 1)
            i, last = end, "s"
        elif c.isalnum() or c in "_$":
            end = i
            while end < n and (text[end].isalnum() or text[end] in "_$"):
                end += 1
            last = text[i:end]
            i = end
        else:
            if not c.isspace():
                last = c
            i += 1
    return "".join(out)


def string_end(text: str, i: int, quote: str) -> int:
    """The index just past the string literal that starts at ``i``."""
    k = i + 1
    while k < len(text) and text[k] != quote and text[k] != "\n":
        k += 2 if text[k] == "\\" else 1
    return k + 1


def template_end(text: str, i: int) -> int:
    """The index just past the template literal that starts at ``i`` (its ``${...}``
    parts may hold strings, templates and braces of their own)."""
    k = i + 1
    while k < len(text):
        c = text[k]
        if c == "\\":
            k += 2
        elif c == "`":
            return k + 1
        elif text.startswith("${", k):
            k = code_end(text, k + 2)
        else:
            k += 1
    return k


def code_end(text: str, k: int) -> int:
    """The index just past the ``}`` that closes the code of a ``${`` at ``k``."""
    depth = 1
    while k < len(text) and depth:
        c = text[k]
        if c in "'\"":
            k = string_end(text, k, c)
            continue
        if c == "`":
            k = template_end(text, k)
            continue
        depth += {"{": 1, "}": -1}.get(c, 0)
        k += 1
    return k


def regex_end(text: str, i: int) -> int:
    """The index just past the regular expression literal that starts at ``i``."""
    k, in_class = i + 1, False
    while k < len(text) and text[k] != "\n":
        c = text[k]
        if c == "\\":
            k += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            k += 1
            while k < len(text) and text[k].isalpha():
                k += 1
            return k
        k += 1
    return k


def closing(code: str, k: int, open_: str, close: str) -> int:
    """The index of the bracket that closes the one at ``k``."""
    depth = 0
    for j in range(k, len(code)):
        if code[j] == open_:
            depth += 1
        elif code[j] == close:
            depth -= 1
            if depth == 0:
                return j
    return len(code) - 1


def line_of(code: str, k: int) -> int:
    return code.count("\n", 0, k) + 1


def body_after(code: str, paren: int) -> int | None:
    """The ``{`` of the body after the parameter list whose ``(`` is at ``paren``."""
    end = closing(code, paren, "(", ")")
    rest = re.match(r"\s*(?:=>\s*)?\{", code[end + 1 :])
    return None if rest is None else end + rest.end()


def functions(text: str) -> dict[str, int]:
    """Every function of a module (see the module's docstring) by name: its length in
    lines (the longest, where a name is used twice)."""
    code = blank(text)
    found: dict[str, int] = {}

    def note(name: str, start: int, brace: int) -> None:
        end = closing(code, brace, "{", "}")
        length = line_of(code, end) - line_of(code, start) + 1
        found[name] = max(found.get(name, 0), length)

    for match in FUNCTION.finditer(code):
        brace = body_after(code, match.end() - 1)
        if brace is not None:
            name = match.group(1) or f"<anonymous@{line_of(code, match.start())}>"
            note(name, match.start(), brace)
    for match in ARROW.finditer(code):
        note(match.group(1), match.start(), match.end() - 1)
    for start, end in class_bodies(code):
        for name, at, brace in methods(code, start, end):
            note(name, at, brace)
    return found


def class_bodies(code: str) -> list[tuple[int, int]]:
    """The spans of every class body (inside its braces)."""
    spans = []
    for k, c in enumerate(code):
        if c == "{" and CLASS.search(code[max(0, k - 200) : k]):
            spans.append((k + 1, closing(code, k, "{", "}")))
    return spans


def methods(code: str, start: int, end: int) -> list[tuple[str, int, int]]:
    """The methods at the top level of a class body: name, start, body's brace."""
    found = []
    k = start
    while k < end:
        match = METHOD.match(code, k)
        if match and match.group(1) not in KEYWORDS:
            brace = body_after(code, match.end() - 1)
            if brace is not None:
                found.append((match.group(1), match.start(), brace))
                k = closing(code, brace, "{", "}") + 1
                continue
        if code[k] == "{":
            k = closing(code, k, "{", "}") + 1
        else:
            k += 1
    return found


def long_functions() -> dict[str, int]:
    """Every function over ``MAX_FUNCTION`` lines, as ``module.js:name``."""
    return {
        f"{module}:{name}": length
        for module, text in modules().items()
        for name, length in functions(text).items()
        if length > MAX_FUNCTION
    }


def long_modules() -> dict[str, int]:
    """Every module over ``MAX_MODULE`` lines."""
    lines = {name: len(text.splitlines()) for name, text in modules().items()}
    return {name: n for name, n in lines.items() if n > MAX_MODULE}


def event_kinds() -> frozenset[str]:
    """Every event kind a family or a role declares."""
    declared = {spec.kind for role in VILLAGE.roles() for spec in role.events}
    return frozenset(set(VILLAGE_EVENTS) | set(LUPUSBURG_EVENTS) | declared)


def kinds_named(text: str, kinds: frozenset[str]) -> frozenset[str]:
    """The event kinds a module's text names: as a string, or as an object's key (a
    table of readers by kind)."""
    named = set(STRING.findall(text)) | set(KEY.findall(blank(text)))
    return frozenset(named & kinds)


def test_the_allow_lists_are_shown() -> None:
    """Print the allow-lists (run with ``-s`` to see what is left to do)."""
    print("JS modules allowed over", MAX_MODULE, "lines:", sorted(ALLOWED_MODULES))
    print("JS functions allowed over", MAX_FUNCTION, "lines:", sorted(ALLOWED_FUNCTIONS))
    print("JS import circles allowed:", [sorted(part) for part in ALLOWED_CIRCLES])


def test_no_module_is_too_long() -> None:
    only_shrinks(long_modules(), ALLOWED_MODULES, f"JS modules over {MAX_MODULE} lines")


def test_no_function_is_too_long() -> None:
    only_shrinks(long_functions(), ALLOWED_FUNCTIONS, f"JS functions over {MAX_FUNCTION} lines")


def test_no_import_circle() -> None:
    only_shrinks(set(circles()), ALLOWED_CIRCLES, "JS import circles")


def test_the_pages_name_no_more_event_kinds() -> None:
    kinds = event_kinds()
    found = {name: kinds_named(text, kinds) for name, text in modules().items()}
    found = {name: named for name, named in found.items() if named}
    new = {
        name: sorted(named - ALLOWED_KINDS.get(name, frozenset())) for name, named in found.items()
    }
    assert not any(new.values()), f"event kinds named by the pages: {new}"
    gone = {
        name: sorted(named - found.get(name, frozenset())) for name, named in ALLOWED_KINDS.items()
    }
    assert not any(gone.values()), f"no longer named: drop from ALLOWED_KINDS: {gone}"


def test_the_kind_reader_sees_strings_and_keys() -> None:
    kinds = frozenset({"death", "vision", "dawn"})
    text = 'if (e.kind === "death") x();\nconst READ = {\n  vision(state) {},\n};\n// dawn\n'
    assert kinds_named(text, kinds) == {"death", "vision"}


def test_the_import_reader_sees_every_form() -> None:
    """Named, default, namespace, re-exported, bare and multi-line imports are read
    (else the circle test could not fail for them)."""
    text = (
        'import { a, b } from "./one.js";\n'
        'import two from "./two.js";\n'
        'import * as three from "./three.js";\n'
        'export { c } from "./four.js";\n'
        'import "./five.js";\n'
        'import {\n  d,\n  e,\n} from "./six.js";\n'
        'const seven = await import("./seven.js");\n'
        'fetch("/api/x.js"); // import x from "./comment.js" is still read: harmless\n'
    )
    assert imports(text) >= {f"{n}.js" for n in ("one", "two", "three", "four", "five", "six")}
    assert "seven.js" in imports(text)


def test_the_scanner_measures_functions_as_written() -> None:
    """Declarations, nested declarations, top-level arrows and methods are measured from
    their first line to their closing brace; braces in strings, templates, comments and
    regular expressions do not count."""
    body = "\n".join(["  x();"] * 5)
    text = (
        "export function outer(a, { b = 1 } = {}) {\n"
        '  const s = "}}}" + `${"{"}` + /\\{/.source; // }\n'
        f"  function inner() {{\n{body}\n  }}\n"
        "  return s;\n"
        "}\n"
        f"export const arrow = (page) => {{\n{body}\n}};\n"
        "class Thing {\n"
        "  constructor(app, { screen = false } = {}) {\n"
        "    if (screen) {\n      this.app = app;\n    }\n"
        "  }\n"
        f"  async start() {{\n{body}\n  }}\n"
        "}\n"
    )
    assert functions(text) == {"outer": 11, "inner": 7, "arrow": 7, "constructor": 5, "start": 7}
