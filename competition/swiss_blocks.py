"""Exact minimum-cost matchings, whole or score group by score group in blocks.

The blossom algorithm (``networkx.max_weight_matching``) is exact but, in pure Python,
takes seconds beyond a hundred or so players. A Swiss round rarely needs the whole field
at once: players meet their own score group, and a group with an odd count sends one
player down to the next. :func:`pair_by_blocks` uses that shape. Going down the groups
top first, each group (with the player floated into it, at its top) is cut into blocks
that pair a slice of its top half with the matching slice of its bottom half, the
Dutch-style partners, and each block is matched exactly. A group with an odd count
adds a virtual "down" seat to its last block: whoever the block pairs with it floats
into the next group.

This is only a proposal: a block cannot see a better partner in another block. The
caller keeps it only when it reaches provable lower bounds (see ``swiss.py``), and
otherwise pays for the exact matching of the whole field.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import networkx as nx

BLOCK_PAIRS: Final = 16
DOWN: Final = "\x00down"


def min_cost_perfect_matching(costs: dict[tuple[int, int], int]) -> set[tuple[int, int]]:
    """An exact minimum-cost perfect matching over the given edges (even node count).

    Maximising ``ceiling - cost`` with maximum cardinality is the same as minimising cost,
    because every perfect matching has the same number of edges. Integer weights keep
    networkx's arithmetic exact.
    """
    # imported here, not with the module: networkx loads all of its algorithms, a tenth
    # of a second at every start of the bot, which pairs a tournament rarely
    import networkx as nx

    ceiling = max(costs.values()) + 1
    graph: nx.Graph[int] = nx.Graph()
    for (i, j), cost in costs.items():
        graph.add_edge(i, j, weight=ceiling - cost)
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return matching


def pair_by_blocks(
    groups: Sequence[Sequence[str]],
    cost: Callable[[str, str], int],
    down_cost: Callable[[str, int, int], int],
    defect: Callable[[str, str], bool],
    block_pairs: int = BLOCK_PAIRS,
) -> list[tuple[str, str]]:
    """Pair score groups (best first, each in pairing order) into (higher, lower) pairs.

    ``down_cost(player, place, size)`` is what floating ``player`` (at ``place`` of a
    group of ``size``) down costs; ``defect`` marks a pair a block should not settle for
    while a bigger block might avoid it, so a block with one is retried four times as
    big, up to the whole group.
    """
    pairs: list[tuple[str, str]] = []
    incoming: str | None = None
    for group in groups:
        members = [incoming, *group] if incoming is not None else list(group)
        size = block_pairs
        while True:
            found, floater = _pair_group(members, incoming, cost, down_cost, size)
            whole = 2 * size >= len(members)
            if whole or not any(defect(a, b) for a, b in found):
                break
            size *= 4
        pairs += found
        incoming = floater
    if incoming is not None:
        raise ValueError("the groups hold an odd number of players")
    return pairs


def _pair_group(
    members: list[str],
    incoming: str | None,
    cost: Callable[[str, str], int],
    down_cost: Callable[[str, int, int], int],
    block_pairs: int,
) -> tuple[list[tuple[str, str]], str | None]:
    place = {pid: i for i, pid in enumerate(members)}
    half = len(members) // 2
    top, bottom = members[:half], members[half:]
    blocks: list[list[str]] = []
    for start in range(0, max(half, 1), block_pairs):
        last = start + block_pairs >= half
        blocks.append(
            top[start : start + block_pairs] + bottom[start : None if last else start + block_pairs]
        )
    if len(members) % 2:
        blocks[-1].append(DOWN)
    pairs: list[tuple[str, str]] = []
    floater: str | None = None
    for block in blocks:
        costs: dict[tuple[int, int], int] = {}
        for i in range(len(block)):
            for j in range(i + 1, len(block)):
                a, b = block[i], block[j]
                if b == DOWN:
                    if a != incoming:
                        costs[i, j] = down_cost(a, place[a], len(members))
                else:
                    costs[i, j] = cost(a, b)
        for i, j in min_cost_perfect_matching(costs):
            a, b = sorted((block[i], block[j]), key=lambda p: place.get(p, len(members)))
            if b == DOWN:
                floater = a
            else:
                pairs.append((a, b))
    return pairs, floater
