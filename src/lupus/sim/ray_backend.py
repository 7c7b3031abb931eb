"""The same chunks of seeded games, on Ray (a local one, or a cluster's address)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from lupus.sim.config import SimConfig, Tally
from lupus.sim.selfplay import play_range


def play_chunk(config: SimConfig, start: int, stop: int) -> Tally:
    """``play_range`` as a Python function: Ray cannot wrap the compiled one."""
    return play_range(config, start, stop)


def run_on_ray(work: list[tuple[SimConfig, int, int]], address: str | None) -> Iterator[Tally]:
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - depends on the extra
        raise RuntimeError("the Ray backend needs `pip install 'lupus[ray]'`") from exc
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    try:
        remote: Any = ray.remote(play_chunk)
        pending = [remote.remote(config, a, b) for config, a, b in work]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        if started_here:
            ray.shutdown()
