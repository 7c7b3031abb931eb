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


def ratings(n: Narrator, title: str, figure: Mapping[str, Any]) -> str:
    rows = [[name, r["mu"], r["sigma"], r["ordinal"], r["games"]] for name, r in figure.items()]
    head = [n.t("report_kind"), "mu", "sigma", "ordinal", n.t("report_count")]
    return f"## {n.t(title)}\n\n" + table(head, [[cell(v) for v in r] for r in rows])


def arena(n: Narrator, figure: Mapping[str, Any]) -> list[str]:
    """The Game Arena metrics by kind, then key-role survival by kind and role."""
    rows = [
        [kind] + [f"{m[k]['p']:.3f} ({m[k]['hits']}/{m[k]['count']})" for k in METRICS]
        for kind, m in figure.items()
    ]
    head = [n.t("report_kind"), "IRP", "VSS", "KSR", "WD-KSR"]
    keys = [
        [kind, n.role(role), r["hits"], r["count"], r["p"]]
        for kind, m in figure.items()
        for role, r in m["ksr_by_role"].items()
    ]
    key_head = [n.t("report_kind"), n.t("report_card"), n.t("report_alive")]
    key_head += [n.t("report_seats"), n.t("report_rate")]
    return [
        f"## {n.t('report_arena')}\n\n" + table(head, rows),
        f"## {n.t('report_key_roles')}\n\n" + table(key_head, [[cell(v) for v in r] for r in keys]),
    ]


METRICS = ("irp", "vss", "ksr", "wd_ksr")


def totals(n: Narrator, title: str, figure: Mapping[str, Any]) -> str:
    rows = [[key, cell(value)] for key, value in figure.items()]
    return f"## {n.t(title)}\n\n" + table(["", n.t("report_total")], rows)


def markdown(n: Narrator, report: Mapping[str, Any]) -> str:
    """The whole report.md."""
    won = ("report_wins", "report_count")
    alive = ("report_alive", "report_seats")
    parts = [
        f"# {n.t('report_title', **report['config'])}",
        rates(n, "report_factions", report["sides"], "report_side", side_name(n), won),
        rates(n, "report_roles", report["roles"], "report_card", n.role),
        rates(n, "report_kinds", report["kinds"], "report_kind"),
        rates(n, "report_kind_roles", report["kind_roles"], "report_kind"),
        rates(n, "report_survival", report["survival"], "report_card", n.role, alive),
        ratings(n, "report_ratings", report["ratings"]),
        ratings(n, "report_role_ratings", report["role_ratings"]),
        *arena(n, report["arena"]),
        totals(n, "report_fallbacks", report["fallbacks"]),
        totals(n, "report_cost", report["cost"]),
    ]
    return "\n\n".join(parts) + "\n"
