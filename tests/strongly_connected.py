"""The strongly connected parts of a graph (Tarjan): the import tests' circles."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Every strongly connected part of ``graph`` with two or more nodes, each sorted,
    in a fixed order (a node's edges to nodes outside the graph are ignored)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in graph:
                continue
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found
