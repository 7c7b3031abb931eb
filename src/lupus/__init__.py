"""lupus: an exact, replayable rules engine for the Werewolf family of hidden-role games."""

from pathlib import Path


def _refuse_a_stale_build(package: Path) -> None:
    """In a source checkout, refuse compiled modules older than their source.

    ``pip install -e .`` compiles the engine in place (``setup.py``), and Python imports
    a compiled module before its ``.py``: an edit would silently not run. Installed
    wheels are left alone (their files' times say nothing).
    """
    if not (package.parent.parent / "setup.py").is_file():
        return
    # mypyc puts the compiled code in one shared library beside the package, and a
    # small module per source file that loads it; a rebuild may leave those alone.
    shared = [lib.stat().st_mtime for lib in package.parent.glob("*__mypyc*.so")]
    for built in package.rglob("*.so"):
        source = built.with_name(built.name.split(".")[0] + ".py")
        made = max([built.stat().st_mtime, *shared])
        if source.is_file() and source.stat().st_mtime > made:
            raise ImportError(
                f"lupus: the compiled {built.name} is older than {source.name}; rebuild with "
                "`pip install -e .` (or `LUPUS_COMPILE=0 pip install -e .` for pure Python)"
            )


_refuse_a_stale_build(Path(__file__).parent)

# The public API (docs/architecture.md, "The public API"). The engine is imported at
# once (every use of lupus needs it); narration and scenario files load on first use,
# so that ``import lupus`` stays as light as the engine itself.
from typing import TYPE_CHECKING  # noqa: E402

from lupus.engine import (  # noqa: E402
    LEADER,
    Action,
    Death,
    Event,
    Game,
    IllegalAction,
    LupusError,
    Outcome,
    Prompt,
    RulebookError,
    SetupError,
    View,
)
from lupus.engine.deal import Deal, composition  # noqa: E402
from lupus.families import deal, load, new_game  # noqa: E402
from lupus.rulebooks import Rulebook, available  # noqa: E402

if TYPE_CHECKING:
    from lupus import scenario
    from lupus.narration import narrate
    from lupus.scenario import ScenarioError

__all__ = [
    "LEADER",
    "Action",
    "Deal",
    "Death",
    "Event",
    "Game",
    "IllegalAction",
    "LupusError",
    "Outcome",
    "Prompt",
    "Rulebook",
    "RulebookError",
    "ScenarioError",
    "SetupError",
    "View",
    "available",
    "composition",
    "deal",
    "load",
    "narrate",
    "new_game",
    "scenario",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """The parts of the API that load on first use (narration, scenario files)."""
    if name == "narrate":
        from lupus.narration import narrate

        return narrate
    if name == "scenario":
        import lupus.scenario

        return lupus.scenario
    if name == "ScenarioError":
        from lupus.scenario import ScenarioError

        return ScenarioError
    raise AttributeError(f"module 'lupus' has no attribute {name!r}")
