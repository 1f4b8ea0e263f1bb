"""The rules stay pure: `domain/` imports neither aiogram, SQLAlchemy nor the bot's own wiring,
and never reads the clock (time is passed in), so every rule runs anywhere, in any test; the
handlers read only the clock the Dispatcher hands them."""

from __future__ import annotations

import ast
import re
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

DOMAIN = Path(__file__).resolve().parents[2] / "domain"
HANDLERS = DOMAIN.parent / "handlers"
RENDERING = DOMAIN.parent / "bot" / "rendering"
FORBIDDEN_PACKAGES = ("aiogram", "sqlalchemy", "alembic", "aiohttp", "bot", "handlers", "harness")
# Fresh randomness, like the clock, never decides a rule: a seed is drawn outside and passed
# in. (Use cases in domain/services may mint unguessable deep-link tokens with it.)
RULES_FORBIDDEN = ("secrets",)
CLOCK_READS = {
    ("datetime", "now"),
    ("datetime", "utcnow"),
    ("date", "today"),
    ("time", "time"),
    ("time", "monotonic"),
    ("time", "perf_counter"),
    ("time", "process_time"),
}


def _clock_reads(path: Path) -> list[str]:
    return [
        f"{path.name}:{node.lineno} reads the clock"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and (node.func.value.id, node.func.attr) in CLOCK_READS
    ]


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module the file imports (absolute imports), with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def _violations(path: Path, forbidden: tuple[str, ...] = FORBIDDEN_PACKAGES) -> list[str]:
    found = _clock_reads(path)
    for line, name in _imports(path):
        if name.split(".")[0] in forbidden:
            found.append(f"{path.name}:{line} imports {name}")
    return found


def test_domain_is_pure() -> None:
    files = sorted(DOMAIN.rglob("*.py"))
    assert len(files) > 10
    assert [v for path in files for v in _violations(path)] == []


def test_handlers_read_only_the_injected_clock() -> None:
    # One clock for every handler: the Dispatcher's `clock`, which tests and the simulation set.
    files = sorted(HANDLERS.glob("*.py"))
    assert len(files) > 10
    assert [v for path in files for v in _clock_reads(path)] == []


def test_screens_build_their_keyboards_in_their_views() -> None:
    # A router module reads a press, calls a use case and shows the result; its keyboards are
    # built in `<family>_views.py` (or the shared `keyboards.py`), where a newcomer finds them.
    routers = [
        path
        for path in sorted(HANDLERS.glob("*.py"))
        if not path.stem.endswith("_views") and path.stem != "keyboards"
    ]
    assert len(routers) > 10
    building = [
        path.name
        for path in routers
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module == "aiogram.utils.keyboard"
    ]
    assert building == []


# A tag written by hand in a string: "<b>", "</i>", "<a href=...>".
_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9-]*(\s[^<>]*)?>")


def _hand_written_markup(path: Path) -> list[str]:
    """Calls of `escape(...)` (any spelling: `html.escape`, `escape`) and string literals
    holding a tag: what a view needs when it writes HTML itself."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name == "escape":
                found.append(f"{path.name}:{node.lineno} calls escape()")
        elif isinstance(node, ast.ImportFrom) and node.module == "html":
            found.append(f"{path.name}:{node.lineno} imports from html")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and _TAG.search(node.value)
        ):
            found.append(f"{path.name}:{node.lineno} writes a tag")
    return found


def test_views_write_no_markup_by_hand() -> None:
    # A screen's text is phrase data (Fluent keys, `domain.layout`'s pieces) that the one
    # renderer the pushes use turns into HTML, escaping every plain string on the way: a view
    # never escapes by hand nor writes a tag, so it cannot forget to.
    views = sorted(HANDLERS.glob("*_views.py"))
    assert len(views) > 10
    assert [problem for path in views for problem in _hand_written_markup(path)] == []
    # The routers hand the same renderer what they say (`texts.phrase`), never escaped text.
    routers = sorted(set(HANDLERS.glob("*.py")) - set(views))
    escaping = [p for path in routers for p in _hand_written_markup(path) if "escape()" in p]
    assert escaping == []


def test_the_markup_check_sees_an_escape_and_a_tag(tmp_path: Path) -> None:
    sample = tmp_path / "sample_views.py"
    sample.write_text('from html import escape\nx = f"<b>{escape(name)}</b>"\n')
    found = {problem.split(" ", 1)[1] for problem in _hand_written_markup(sample)}
    assert found == {"imports from html", "calls escape()", "writes a tag"}


# The views' functions that rightly give a plain string: none is a screen's text, each is a
# piece Telegram takes as a string (a button's label or data, a link, a command's name) or a
# value a phrase takes as an argument (escaped when the phrase is rendered).
PLAIN_STRINGS = {
    ("game_log_views", "_seats_of"): "the seats holding a role, a phrase's argument",
    ("organizer_views", "_channel"): "the channel's name, a phrase's argument",
    ("organizer_views", "_dates"): "the tournament's dates, a phrase's argument",
    ("organizer_views", "_moment"): "a moment on the tournament's clock, a phrase's argument",
    ("organizer_views", "_web_page_button"): "a button's Fluent key and its callback data",
    ("protocol_views", "_button"): "a button's packed callback data",
    ("protocol_views", "_points"): "points written on a seat's button",
    ("protocol_views", "_seat_label"): "a seat's button label",
    ("protocol_views", "_marked"): "a seat's button label, marked as picked",
    ("protocol_views", "_word"): "a tool button's label",
    ("protocol_views", "_label"): "a tool button's label, kept per language",
    ("rounds_views", "_name"): "a player's nickname, a phrase's argument",
    ("season_views", "player_label"): "a player's button label",
    ("season_views", "_address"): "a web page's address for a link button",
    ("start_views", "menu_commands"): "the command names of Telegram's menu",
    ("streams_views", "stream_address"): "the stream view's address, a phrase's argument",
    ("streams_views", "public_address"): "the spectators' page address, a phrase's argument",
    ("timetable_views", "event_label"): "an event's button label",
}


def _gives_text(annotation: ast.expr) -> bool:
    """A return type that is a string: `str`, `str | None`, or a tuple led by one (a text
    with its keyboard); a list of pieces some of which are strings is phrase data."""
    if isinstance(annotation, ast.Name):
        return annotation.id == "str"
    if isinstance(annotation, ast.BinOp):
        return _gives_text(annotation.left) or _gives_text(annotation.right)
    if isinstance(annotation, ast.Subscript) and ast.unparse(annotation.value) == "tuple":
        first = annotation.slice.elts[0] if isinstance(annotation.slice, ast.Tuple) else None
        return first is not None and _gives_text(first)
    return False


def _rendered_screens(path: Path) -> list[str]:
    """A view's function that gives a string (a text it rendered itself) without being one of
    the plain strings above, and every call of `texts.phrase` in a view: a screen's text is
    phrase data, written once where the handler answers (`handlers/common.py`)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            if _gives_text(node.returns) and (path.stem, node.name) not in PLAIN_STRINGS:
                found.append(f"{path.name}:{node.lineno} {node.name}() returns a rendered str")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "phrase"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "texts"
        ):
            found.append(f"{path.name}:{node.lineno} renders with texts.phrase")
    return found


def test_screens_give_phrase_data_not_rendered_text() -> None:
    # A screen says what a push says: phrase data (`domain.outgoing.Phrase`, `Lines`), turned
    # into HTML by the one renderer when the handler answers or edits, split there at
    # Telegram's limit. A view that rendered its text would be a second way to write one.
    views = sorted(HANDLERS.glob("*_views.py"))
    assert [problem for path in views for problem in _rendered_screens(path)] == []
    named = {
        (path.stem, node.name)
        for path in views
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef)
    }
    assert set(PLAIN_STRINGS) <= named, "a plain-string helper listed above is gone"


def test_the_screen_check_sees_a_rendered_text(tmp_path: Path) -> None:
    sample = tmp_path / "sample_views.py"
    sample.write_text(
        "def card_text(texts: Texts) -> str:\n"
        '    return texts.phrase(Phrase.of("card"))\n\n\n'
        "def card_screen(texts: Texts) -> tuple[str, Markup]:\n"
        '    return texts("card"), Markup()\n\n\n'
        "def card_lines() -> Lines:\n"
        '    return lines([Phrase.of("card")])\n'
    )
    found = sorted(problem.split(" ", 1)[1] for problem in _rendered_screens(sample))
    assert found == [
        "card_screen() returns a rendered str",
        "card_text() returns a rendered str",
        "renders with texts.phrase",
    ]


def test_rules_draw_no_fresh_randomness() -> None:
    # Every rule module, packages like domain/seating/ included; use cases may mint tokens.
    rules = sorted(p for p in DOMAIN.rglob("*.py") if "services" not in p.relative_to(DOMAIN).parts)
    forbidden = FORBIDDEN_PACKAGES + RULES_FORBIDDEN
    assert [v for path in rules for v in _violations(path, forbidden)] == []


def test_rendering_writes_what_it_is_given() -> None:
    # The rendering layer turns data (a board, a card, a sheet) into text or pictures in a
    # language; it never reads the database nor runs a use case (the outbox's drawers in
    # bot/delivery and the handlers read, then hand it what to render), so the channel, the
    # private chat and the web page can all render the same data.
    files = sorted(RENDERING.rglob("*.py"))
    assert len(files) > 5
    forbidden = ("aiogram", "sqlalchemy", "aiohttp", "handlers", "domain.services", "bot.db")
    found = [
        f"{path.name}:{line} imports {name}"
        for path in files
        for line, name in _imports(path)
        if any(name == bad or name.startswith(f"{bad}.") for bad in forbidden)
    ]
    assert found == []


def test_use_cases_record_data_not_markup() -> None:
    # What a push says is phrases and drawings, written by the one rendering path at send
    # time in the recipient's language: no use case or rule hands it ready HTML.
    files = [path for path in sorted(DOMAIN.rglob("*.py")) if path.name != "outgoing.py"]
    found = [
        f"{path.name}:{node.lineno} uses Html"
        for path in files
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Name) and node.id == "Html"
    ]
    assert found == []


def test_the_check_sees_a_violation(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import aiogram\nfrom datetime import datetime\nx = datetime.now()\n")
    assert len(_violations(sample)) == 2


ROOT = DOMAIN.parent
# Where the product's and the harness's code lives; generated migrations are not written by hand.
SIZED = ("bot", "domain", "handlers", "harness", "migrations")
GENERATED = ROOT / "migrations" / "versions"
MODULE_LINES = 500
FUNCTION_LINES = 60


def _sized_files() -> list[Path]:
    return sorted(
        path
        for folder in SIZED
        for path in (ROOT / folder).rglob("*.py")
        if not path.is_relative_to(GENERATED)
    )


def _too_long(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    found = []
    if (lines := len(text.splitlines())) > MODULE_LINES:
        found.append(f"{name} has {lines} lines")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > FUNCTION_LINES:
                found.append(f"{name}:{node.lineno} {node.name} has {length} lines")
    return found


def test_no_module_nor_function_is_too_long() -> None:
    # A newcomer reads a module in one sitting and a function on one screen: a module over
    # 500 lines or a function over 60 is split along what it does.
    files = _sized_files()
    assert len(files) > 100
    assert [problem for path in files for problem in _too_long(path)] == []


def test_the_size_check_sees_a_long_function(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    body = "".join(f"    x{n} = {n}\n" for n in range(FUNCTION_LINES))
    sample.write_text(f"def long():\n{body}\n\ndef short():\n    return 1\n")
    assert [problem.split(" ", 1)[1] for problem in _too_long(sample)] == [
        f"long has {FUNCTION_LINES + 1} lines"
    ]


def _module(path: Path) -> str:
    parts = path.relative_to(DOMAIN.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _domain_imports(path: Path, modules: set[str]) -> set[str]:
    """The domain modules a file imports, type-only imports included (a name imported from a
    package that is itself a module counts as that module)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found & modules - {_module(path)}


def test_domain_modules_import_each_other_without_a_cycle() -> None:
    files = sorted(DOMAIN.rglob("*.py"))
    modules = {_module(path) for path in files}
    graph = {_module(path): _domain_imports(path, modules) for path in files}
    assert graph["domain.regulation"], "the graph should see the imports"
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as error:
        pytest.fail(f"domain modules import each other in a cycle: {' -> '.join(error.args[1])}")


# The product's packages, apart from the test harness (harness/: the fake Telegram, the
# sandbox, the simulation), which only the command line's offline path may load, inside the
# command that runs it, so the bot a server runs never holds it.
PRODUCT = ("bot", "handlers", "domain")
HARNESS_ENTRIES = {"bot/commands/simulate.py"}


def _harness_imports(path: Path) -> list[tuple[int, bool]]:
    """Each import of the harness in a file: its line and whether it sits inside a function."""
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        if any(name == "harness" or name.startswith("harness.") for name in names):
            found.append((node.lineno, in_function))
        inside = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for child in ast.iter_child_nodes(node):
            visit(child, inside)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def test_the_product_never_imports_the_harness() -> None:
    root = DOMAIN.parent
    files = sorted(path for package in PRODUCT for path in (root / package).rglob("*.py"))
    imports = {path.relative_to(root).as_posix(): _harness_imports(path) for path in files}
    found = [
        f"{name}:{line} imports the harness"
        + ("" if name in HARNESS_ENTRIES else " outside the CLI")
        for name, lines in imports.items()
        for line, in_function in lines
        if name not in HARNESS_ENTRIES or not in_function
    ]
    assert found == []
    # The entry does load it (else the rule would pass on a moved harness), inside its command.
    assert all(imports[name] for name in HARNESS_ENTRIES)


def test_the_harness_check_sees_a_module_level_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import harness.sandbox\n\ndef run():\n    from harness.simulation import simulate\n"
    )
    assert _harness_imports(sample) == [(1, False), (4, True)]


# bot/ by concern: app/ (composition and start-up) wires everything, handlers/ use the lower
# packages (telegram/, db/, delivery/, rendering/, web/, i18n, config), and none of those
# reaches back up. Only the composition root imports the handlers.
COMPOSITION_ROOT = {"bot.app"}


def _modules(root: Path, *packages: str) -> dict[str, Path]:
    return {
        ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): path
        for package in packages
        for path in sorted((root / package).rglob("*.py"))
    }


def _imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules among `modules` a file imports anywhere (inside functions and type-only
    imports too); `from package import module` counts as that module alone."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{parent}.{base}".rstrip(".")
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return (found & modules.keys()) - {name}


def _layer(module: str) -> str:
    """A module's place on the map: `bot.<folder or module>` in bot/, `handlers` as a whole."""
    parts = module.split(".")
    return "handlers" if parts[0] == "handlers" else ".".join(parts[:2])


def _cycle(graph: dict[str, set[str]]) -> str | None:
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as error:
        return " -> ".join(error.args[1])
    return None


def _bot_graphs(root: Path) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The import graph of bot/ and handlers/ by module, and by layer."""
    modules = _modules(root, "bot", "handlers")
    by_module = {name: _imported(name, path, modules) for name, path in modules.items()}
    by_layer: dict[str, set[str]] = {}
    for name, imported in by_module.items():
        by_layer.setdefault(_layer(name), set()).update(
            _layer(other) for other in imported if _layer(other) != _layer(name)
        )
    return by_module, by_layer


def test_bot_and_handlers_import_each_other_without_a_cycle() -> None:
    by_module, by_layer = _bot_graphs(DOMAIN.parent)
    assert "handlers.routers" in by_module["bot.app"], "the graph should see the imports"
    assert {"bot.app", "handlers", "bot.web", "bot.telegram"} <= by_layer.keys()
    assert _cycle(by_module) is None, f"modules import each other: {_cycle(by_module)}"
    assert _cycle(by_layer) is None, f"packages import each other: {_cycle(by_layer)}"


def test_bot_reaches_the_handlers_only_through_the_composition_root() -> None:
    by_module, _ = _bot_graphs(DOMAIN.parent)
    found = [
        f"{name} imports {other}"
        for name, imported in sorted(by_module.items())
        if name.startswith("bot") and name not in COMPOSITION_ROOT
        for other in sorted(imported)
        if other.startswith("handlers")
    ]
    assert found == []


def test_the_cycle_check_sees_a_cycle(tmp_path: Path) -> None:
    (tmp_path / "bot" / "web").mkdir(parents=True)
    (tmp_path / "handlers").mkdir()
    (tmp_path / "bot" / "__init__.py").write_text("")
    (tmp_path / "bot" / "web" / "__init__.py").write_text("from bot.web import server\n")
    (tmp_path / "bot" / "web" / "server.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.app import App\n"
    )
    (tmp_path / "bot" / "app.py").write_text("from bot.web import serving\n")
    (tmp_path / "handlers" / "__init__.py").write_text("")
    by_module, by_layer = _bot_graphs(tmp_path)
    assert _cycle(by_module) is not None
    assert _cycle(by_layer) is not None
    # A package importing its own submodule is no cycle.
    (tmp_path / "bot" / "web" / "server.py").write_text("from bot.web import health\n")
    (tmp_path / "bot" / "web" / "health.py").write_text("")
    by_module, by_layer = _bot_graphs(tmp_path)
    assert _cycle(by_module) is None
    assert _cycle(by_layer) is None


# Use cases are methods of services built once (domain/services/catalog.py): no use case,
# handler nor web page takes the unit of work factory; only a service's constructor and
# `build_services` hold it.
FACTORY_FREE = ("domain/services", "handlers", "bot/web")
FACTORY_HOLDERS = {"domain/services/catalog.py"}


def _factory_params(path: Path) -> list[str]:
    in_services = "services" in path.parts
    return [
        f"{path.name}:{node.lineno} {node.name}({arg.arg})"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and not (in_services and node.name == "__init__")
        for arg in node.args.posonlyargs + node.args.args + node.args.kwonlyargs
        if arg.arg == "uow_factory"
        or (
            arg.annotation is not None and ast.unparse(arg.annotation).endswith("UnitOfWorkFactory")
        )
    ]


def test_use_cases_handlers_and_pages_take_the_services_not_the_factory() -> None:
    checked = {
        path.relative_to(ROOT).as_posix(): path
        for folder in FACTORY_FREE
        for path in sorted((ROOT / folder).rglob("*.py"))
    }
    found = [
        line
        for name, path in checked.items()
        if name not in FACTORY_HOLDERS
        for line in _factory_params(path)
    ]
    assert found == []


def test_the_factory_check_sees_a_use_case_taking_it(tmp_path: Path) -> None:
    sample = tmp_path / "domain" / "services" / "sample.py"
    sample.parent.mkdir(parents=True)
    sample.write_text(
        "class S:\n    def __init__(self, uow: UnitOfWorkFactory) -> None: ...\n\n"
        "async def use_case(uow_factory, actor): ...\n"
        "async def helper(factory: ports.UnitOfWorkFactory) -> None: ...\n"
    )
    assert len(_factory_params(sample)) == 2
