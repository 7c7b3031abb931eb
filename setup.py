"""Build hook: compile the rules engine with mypyc, the same typed source run as C.

The engine, the rulebooks' facts, the families (the village and its roles, Lupusburg), the random bot (and the den it reads) and the self-play loop are plain,
strictly typed Python; mypyc turns each module into a C extension at install time
(about a minute), which plays a simulated game several times faster (see
``docs/performance.md``). Nothing else changes: the ``.py`` files stay the source of
truth, and ``LUPUS_COMPILE=0 pip install ...`` installs them as pure Python (for a
machine without a C compiler, or to step through the engine in a debugger).
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).parent
COMPILED = [
    "src/lupus/engine",
    "src/lupus/rulebooks/facts.py",
    "src/lupus/village",
    "src/lupus/roles",
    "src/lupus/lupusburg",
    "src/lupus/bots/base.py",
    "src/lupus/bots/den.py",
    "src/lupus/bots/random_bot.py",
    "src/lupus/sim/selfplay.py",
]
# Not compiled: what crosses processes by pickling (``lupus.sim.config``), the bots that
# read views at length, and the front ends; none of them is on a simulation's hot path.


def compiled_modules() -> list[str]:
    found: list[str] = []
    for entry in COMPILED:
        path = ROOT / entry
        files = sorted(path.glob("*.py")) if path.is_dir() else [path]
        found += [str(f.relative_to(ROOT)) for f in files]
    return found


def extensions() -> list[object]:
    if os.environ.get("LUPUS_COMPILE", "1") == "0":
        return []
    from mypyc.build import mypycify

    return list(mypycify(compiled_modules(), opt_level="3", group_name="lupus_native"))


if __name__ == "__main__":  # as setuptools runs it; tests import the list above
    setup(ext_modules=extensions())
