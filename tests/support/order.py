"""The order the test processes run the suite in (``-n``, worksteal): each process
starts with its share of the tests that run for seconds (a bot process, a browser, a
simulated Discord) and ends with quick ones.

pytest-xdist's worksteal gives each process an equal run of the collection, and an idle
process then takes half of what another has not started. A test that runs for half a
minute and is reached last keeps its process busy after the others are done; quick
tests at the end of every run are what the others take meanwhile. The random order
within each group is kept (pytest-randomly), and a module's tests stay together, so a
module's fixtures are still set up once per process.
"""

from __future__ import annotations

from pathlib import Path

import pytest

# where a test runs for seconds: it drives a bot process, a browser or a simulated Discord
# (elsewhere, a module marks itself ``slow``)
SLOW = ("e2e", "tournament_bot", "live", "series")
TESTS = Path(__file__).resolve().parent.parent


def slow(item: pytest.Item) -> bool:
    """Whether the test runs for seconds: by its directory, or its module says so."""
    return item.path.relative_to(TESTS).parts[0] in SLOW or bool(item.get_closest_marker("slow"))


@pytest.hookimpl(trylast=True)  # after pytest-randomly's shuffle
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    if workers < 2:
        return
    modules: dict[Path, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.path, []).append(item)
    runs: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for module in (m for m in modules.values() if slow(m[0])):
        min(runs, key=len).extend(module)
    quick = [item for m in modules.values() if not slow(m[0]) for item in m]
    # the sizes worksteal hands out at first: a share of what is left, process by process
    left = len(items)
    for i, run in enumerate(runs):
        size = left // (workers - i)
        left -= size
        take = max(0, size - len(run))
        run.extend(quick[:take])
        del quick[:take]
    runs[-1].extend(quick)  # slow tests more than a share: the rest goes last
    items[:] = [item for run in runs for item in run]
