"""The report's PNGs: win rates with their 95% intervals as error bars, and ratings as
mu with a bar of one sigma each way. matplotlib (Agg, no display) is imported only
here, when a report is written; the files carry no date or version, so that the same
figures give the same bytes."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

METADATA: dict[str, Any] = {"Software": None}


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def rates_png(path: Path, title: str, figure: Mapping[str, Any]) -> None:
    plt = _pyplot()
    names = list(figure)
    p = [figure[k]["p"] for k in names]
    low = [figure[k]["p"] - figure[k]["ci95"][0] for k in names]
    high = [figure[k]["ci95"][1] - figure[k]["p"] for k in names]
    fig, ax = plt.subplots(figsize=(max(4.0, 0.8 * len(names) + 2), 3.5))
    ax.bar(range(len(names)), p, yerr=[low, high], capsize=4, color="#4a7")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, format="png", metadata=METADATA)
    plt.close(fig)


def ratings_png(path: Path, title: str, figure: Mapping[str, Any]) -> None:
    plt = _pyplot()
    names = list(figure)
    fig, ax = plt.subplots(figsize=(6.0, max(2.5, 0.4 * len(names) + 1.5)))
    ax.errorbar(
        [figure[k]["mu"] for k in names],
        range(len(names)),
        xerr=[figure[k]["sigma"] for k in names],
        fmt="o",
        capsize=4,
    )
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("mu ± sigma")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, format="png", metadata=METADATA)
    plt.close(fig)
