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

from lupus.engine import Action, Event, Game, IllegalAction, Prompt, SetupError, View  # noqa: E402

__all__ = ["Action", "Event", "Game", "IllegalAction", "Prompt", "SetupError", "View"]
__version__ = "0.1.0"
