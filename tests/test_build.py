"""The engine runs compiled where it was built so, and a stale build is refused."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import pytest

import lupus
from lupus import _refuse_a_stale_build

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT))
try:
    from setup import compiled_modules
finally:
    sys.path.remove(str(ROOT))


def compiled_build() -> bool:
    """Whether lupus was installed compiled: mypyc's shared library sits beside the
    package (``LUPUS_COMPILE=0 pip install ...`` installs none: the engine then runs
    as pure Python, and the tests of the compiled build have nothing to test)."""
    return any(Path(lupus.__file__).parent.parent.glob("*__mypyc*.so"))


PURE = pytest.mark.skipif(not compiled_build(), reason="a pure Python install")


def module_name(path: str) -> str:
    dotted = path.removeprefix("src/").removesuffix(".py").replace("/", ".")
    return dotted.removesuffix(".__init__")


@PURE
def test_every_module_of_the_hot_path_is_compiled() -> None:
    names = [module_name(p) for p in compiled_modules()]
    assert "lupus.engine.game" in names and "lupus.sim.selfplay" in names
    for name in names:
        module = importlib.import_module(name)
        assert module.__file__ is not None
        assert not module.__file__.endswith(".py"), f"{name} runs as pure Python"


def test_the_pickled_parts_of_a_simulation_are_not_compiled() -> None:
    names = {module_name(p) for p in compiled_modules()}
    assert "lupus.sim.config" not in names and "lupus.sim.runner" not in names


def test_a_compiled_module_older_than_its_source_is_refused(tmp_path: Path) -> None:
    (tmp_path / "setup.py").write_text("")
    package = tmp_path / "src" / "pkg"
    package.mkdir(parents=True)
    built = package / "mod.cpython-311-x86_64-linux-gnu.so"
    source = package / "mod.py"
    built.write_bytes(b"")
    source.write_text("")
    os.utime(built, (1_000_000, 1_000_000))
    with pytest.raises(ImportError, match=r"older than mod\.py"):
        _refuse_a_stale_build(package)
    os.utime(built, None)
    os.utime(source, (1_000_000, 1_000_000))
    _refuse_a_stale_build(package)  # fresh: accepted


def test_an_installed_wheel_is_not_checked(tmp_path: Path) -> None:
    package = tmp_path / "site-packages" / "pkg"
    package.mkdir(parents=True)
    (package / "mod.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    (package / "mod.py").write_text("")
    os.utime(package / "mod.cpython-311-x86_64-linux-gnu.so", (1_000_000, 1_000_000))
    _refuse_a_stale_build(package)
    assert lupus.__version__


FINGERPRINT = """
import hashlib, json, sys
from pathlib import Path
from lupus.engine.model import LEADER
from lupus.rulebooks import load
from lupus.scenario import read, replay
from lupus.sim.runner import SimConfig, play_one

digest = hashlib.sha256()
for path in sorted(Path(sys.argv[1]).rglob("*.json")):
    game = replay(read(path)).game
    digest.update(repr([game.view(LEADER).events, game.history, game.deaths]).encode())
for rules, players in (("werewolf", 8), ("tit-albert", 9), ("maffia", 8), ("lupusburg", 5)):
    config = SimConfig(rules, players, seed=7)
    for index in range(40):
        game, actions = play_one(config, index, load(rules))
        digest.update(repr([game.events, game.outcome, actions]).encode())
print(game.rulebook.id, __import__("lupus.engine.game").engine.game.__file__.endswith(".py"))
print(digest.hexdigest())
"""


def test_the_compiled_engine_plays_the_games_its_source_plays(tmp_path: Path) -> None:
    """The same scenarios and seeded games, event for event, compiled and interpreted."""
    import shutil
    import subprocess

    pure = tmp_path / "src"
    shutil.copytree(ROOT / "src", pure, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    scenarios = str(ROOT / "tests" / "scenarios")

    def fingerprint(pythonpath: str | None) -> list[str]:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        if pythonpath:
            env["PYTHONPATH"] = pythonpath
        done = subprocess.run(
            [sys.executable, "-c", FINGERPRINT, scenarios],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        return done.stdout.split("\n")

    installed, source = fingerprint(None), fingerprint(str(pure))
    assert source[0].endswith("True")  # the copy runs as pure Python
    if compiled_build():
        assert installed[0].endswith("False")  # the installed engine runs compiled
    assert installed[1] == source[1]
