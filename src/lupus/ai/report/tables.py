"""report.md: every figure of report.json as a markdown table, headed in the
rulebook's language (the ``report_*`` messages of the locales)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from lupus.narration import Narrator

Row = list[str]


def cell(value: object) -> str:
    text = f"{value:.3f}" if isinstance(value, float) else str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def table(head: Row, rows: list[Row]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def rate_rows(figure: Mapping[str, object], name: Callable[[str], str] = str) -> list[Row]:
    rows: list[Row] = []
    for key, value in figure.items():
        assert isinstance(value, Mapping)
        low, high = value["ci95"]
        row = [name(key), value["hits"], value["count"], value["p"]]
        row += [f"{low:.3f}–{high:.3f}"]
        if "points" in value:
            row.append(value["points"])
        rows.append([cell(v) for v in row])
    return rows


def rates(
    n: Narrator,
    title: str,
    figure: Mapping[str, object],
    label: str,
    name: Callable[[str], str] = str,
    counted: tuple[str, str] = ("report_wins", "report_seats"),
) -> str:
    head = [n.t(label), n.t(counted[0]), n.t(counted[1]), n.t("report_rate")]
    head.append(n.t("report_interval"))
    if any(isinstance(v, Mapping) and "points" in v for v in figure.values()):
        head.append(n.t("report_points"))
    return f"## {n.t(title)}\n\n" + table(head, rate_rows(figure, name))


def side_name(n: Narrator) -> Callable[[str], str]:
    return lambda side: n.t("report_no_winner") if side == "none" else n.side(side)


def markdown(n: Narrator, report: Mapping[str, Any]) -> str:
    """The whole report.md."""
    config = report["config"]
    assert isinstance(config, Mapping)
    parts = [f"# {n.t('report_title', **config)}"]
    sides = report["sides"]
    parts.append(
        rates(
            n,
            "report_factions",
            sides,
            "report_side",
            side_name(n),
            ("report_wins", "report_count"),
        )
    )
    parts.append(rates(n, "report_roles", report["roles"], "report_card", n.role))
    parts.append(rates(n, "report_kinds", report["kinds"], "report_kind"))
    parts.append(rates(n, "report_kind_roles", report["kind_roles"], "report_kind"))
    survival = report["survival"]
    parts.append(
        rates(
            n, "report_survival", survival, "report_card", n.role, ("report_alive", "report_seats")
        )
    )
    for title, key in (("report_ratings", "ratings"), ("report_role_ratings", "role_ratings")):
        figure = report[key]
        assert isinstance(figure, Mapping)
        rows = [[name, r["mu"], r["sigma"], r["ordinal"], r["games"]] for name, r in figure.items()]
        head = [n.t("report_kind"), "mu", "sigma", "ordinal", n.t("report_count")]
        parts.append(f"## {n.t(title)}\n\n" + table(head, [[cell(v) for v in r] for r in rows]))
    arena = report["arena"]
    assert isinstance(arena, Mapping)
    rows = []
    for kind, m in arena.items():
        rows.append(
            [kind]
            + [
                f"{m[k]['p']:.3f} ({m[k]['hits']}/{m[k]['count']})"
                for k in ("irp", "vss", "ksr", "wd_ksr")
            ]
        )
    parts.append(
        f"## {n.t('report_arena')}\n\n"
        + table([n.t("report_kind"), "IRP", "VSS", "KSR", "WD-KSR"], rows)
    )
    key_rows = [
        [kind, n.role(role), r["hits"], r["count"], r["p"]]
        for kind, m in arena.items()
        for role, r in m["ksr_by_role"].items()
    ]
    head = [n.t("report_kind"), n.t("report_card"), n.t("report_alive"), n.t("report_seats")]
    head.append(n.t("report_rate"))
    parts.append(
        f"## {n.t('report_key_roles')}\n\n" + table(head, [[cell(v) for v in r] for r in key_rows])
    )
    for title, key in (("report_fallbacks", "fallbacks"), ("report_cost", "cost")):
        figure = report[key]
        assert isinstance(figure, Mapping)
        parts.append(
            f"## {n.t(title)}\n\n"
            + table(["", n.t("report_total")], [[k, cell(v)] for k, v in figure.items()])
        )
    return "\n\n".join(parts) + "\n"
