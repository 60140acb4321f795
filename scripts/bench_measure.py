"""How scripts/bench.py measures a run: the CPU its server spends, per group of
processes, read from /proc (so Linux-only), which tells what a move costs the server
even on a machine shared with other work; how busy the cores were with everything else
(`machine`); the client's own CPU; and the percentiles of its latencies.

A group is a name and a function listing its processes' ids now (a process tree, the
PostgreSQL backends of one database, the Redis server). The processes are sampled every
`SAMPLE_SECONDS` while a window is open, so one that starts during the window counts in
full and one that ends in it counts up to its last sample (a PostgreSQL backend of a
connection closed meanwhile loses at most its last second).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import psycopg
import redis

SAMPLE_SECONDS = 1.0

Times = tuple[float, float]  # user and system CPU seconds


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def counts(value: str) -> list[int]:
    """An option's one count, or several separated by commas (`16,64,256`)."""
    try:
        found = [int(part) for part in value.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a count or a list of counts: {value!r}") from None
    if not found or any(c < 1 for c in found):
        raise argparse.ArgumentTypeError(f"counts must be at least 1: {value!r}")
    return found


def available() -> bool:
    return Path("/proc/self/stat").exists()


def raise_open_files(wanted: int) -> int:
    """Raise this process's soft limit of open files (RLIMIT_NOFILE) to `wanted`, or as
    far as the hard limit allows; the processes it starts afterwards inherit it. Returns
    the limit now in force, with a warning when it is below `wanted`."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return wanted if soft == resource.RLIM_INFINITY else soft
    new = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if new > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
    if new < wanted:
        print(f"bench: open files limited to {new} (hard limit), {wanted} wanted: sockets may fail", file=sys.stderr)
    return new


def memory_kb(pid: int) -> tuple[int | None, int | None]:
    """A process's resident set (VmRSS of /proc/PID/status) and its proportional set
    (Pss of /proc/PID/smaps_rollup: shared pages divided among their users; None where
    that file is missing or unreadable), in kB."""

    def field(path: str, name: str) -> int | None:
        try:
            for line in Path(path).read_text().splitlines():
                if line.startswith(name + ":"):
                    return int(line.split()[1])
        except (OSError, ValueError, IndexError):
            return None
        return None

    return field(f"/proc/{pid}/status", "VmRSS"), field(f"/proc/{pid}/smaps_rollup", "Pss")


class Pacer:
    """A table's moves at a steady pace: the first at `first_at` (time.perf_counter), then
    one every `interval` seconds. A move that ends late makes the next start at once (the
    offered load stays what it is), never two at a time."""

    def __init__(self, first_at: float, interval: float) -> None:
        self.next_at = first_at
        self.interval = interval

    async def wait(self, stop_at: float) -> bool:
        """Sleep until the next move is due; False when it would fall at or after `stop_at`."""
        if self.next_at >= stop_at or time.perf_counter() >= stop_at:
            return False
        await asyncio.sleep(max(0.0, self.next_at - time.perf_counter()))
        self.next_at += self.interval
        return True


def process_cpu(pid: int) -> Times | None:
    """User and system CPU seconds of a process; None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def parents() -> dict[int, int]:
    """Every process's parent, by process id."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            found[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return found


def tree(root: int) -> Callable[[], list[int]]:
    """A process and all its descendants (gunicorn's master and workers, a Celery
    worker's pool)."""

    def pids() -> list[int]:
        children: dict[int, list[int]] = {}
        for pid, parent in parents().items():
            children.setdefault(parent, []).append(pid)
        found, todo = [], [root]
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo += children.get(pid, [])
        return found

    return pids


def backends(admin_url: str, database: str) -> Callable[[], list[int]]:
    """The PostgreSQL backends connected to `database`."""

    def pids() -> list[int]:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [database]).fetchall()
        return [pid for (pid,) in rows]

    return pids


def redis_server(url: str) -> Callable[[], list[int]] | None:
    """The Redis server at `url`, when its process is one this machine's /proc shows
    (not one in another container or host)."""
    client = redis.Redis.from_url(url)
    try:
        pid = int(client.info("server")["process_id"])
    finally:
        client.close()
    if process_cpu(pid) is None:
        return None
    return lambda: [pid]


def machine() -> float:
    """CPU seconds every core has been busy, all processes together (/proc/stat)."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    idle = ticks[3] + ticks[4]  # idle, iowait
    return (sum(ticks) - idle) / os.sysconf("SC_CLK_TCK")


class ServerCPU:
    """CPU used by each group between `start` and `stop`, sampled meanwhile."""

    def __init__(self, groups: dict[str, Callable[[], Iterable[int]]]) -> None:
        self.groups = groups
        self.first: dict[str, dict[int, Times]] = {}
        self.last: dict[str, dict[int, Times]] = {}
        self.stopping = threading.Event()
        self.sampler: threading.Thread | None = None

    def _sample(self) -> None:
        for name, list_pids in self.groups.items():
            for pid in list_pids():
                cpu = process_cpu(pid)
                if cpu is None:
                    continue
                # A process first seen after the start began during the window: all of
                # its time counts.
                self.first[name].setdefault(pid, (0.0, 0.0))
                self.last[name][pid] = cpu

    def start(self) -> None:
        self.first = {name: {} for name in self.groups}
        self.last = {name: {} for name in self.groups}
        for name, list_pids in self.groups.items():
            for pid in list_pids():
                cpu = process_cpu(pid)
                if cpu is not None:
                    self.first[name][pid] = self.last[name][pid] = cpu
        self.stopping.clear()
        self.sampler = threading.Thread(target=self._every, name="server-cpu", daemon=True)
        self.sampler.start()

    def _every(self) -> None:
        while not self.stopping.wait(SAMPLE_SECONDS):
            self._sample()

    def stop(self) -> dict[str, Times]:
        """CPU seconds (user, system) each group used since `start`."""
        self.stopping.set()
        if self.sampler is not None:
            self.sampler.join()
        self._sample()
        used = {}
        for name, last in self.last.items():
            first = self.first[name]
            used[name] = (
                sum(u - first[pid][0] for pid, (u, _) in last.items()),
                sum(s - first[pid][1] for pid, (_, s) in last.items()),
            )
        return used


class Window:
    """The measured part of a run, from the first move counted after the warm-up to
    `close`: the client's own CPU, the server's (when `server` is given), and the
    machine's."""

    def __init__(self, server: ServerCPU | None) -> None:
        self.server = server
        self.opened: float | None = None
        self.client0: resource.struct_rusage | None = None
        self.machine0 = 0.0

    def open(self) -> None:
        """Start counting (once; later calls do nothing)."""
        if self.opened is not None:
            return
        self.opened = time.perf_counter()
        self.client0 = resource.getrusage(resource.RUSAGE_SELF)
        if self.server is not None:
            self.server.start()
            self.machine0 = machine()

    async def open_at(self, at: float) -> None:
        """Start counting at `at` (time.perf_counter), the warm-up's end."""
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        self.open()

    def close(self) -> Measured:
        self.open()  # a run that counted nothing measured nothing, over no time
        assert self.opened is not None and self.client0 is not None
        seconds = time.perf_counter() - self.opened
        client1 = resource.getrusage(resource.RUSAGE_SELF)
        client = (client1.ru_utime - self.client0.ru_utime) + (client1.ru_stime - self.client0.ru_stime)
        if self.server is None:
            return Measured(seconds, client, None, None)
        return Measured(seconds, client, self.server.stop(), machine() - self.machine0)


@dataclass
class Measured:
    seconds: float
    client: float  # CPU seconds
    server: dict[str, Times] | None  # by group
    machine: float | None  # CPU seconds, every process

    def server_total(self, shared: Iterable[str] = ()) -> float | None:
        """The server's CPU seconds, but the groups in `shared`."""
        if self.server is None:
            return None
        return sum(u + s for name, (u, s) in self.server.items() if name not in shared)

    def others(self) -> float | None:
        """CPU seconds of everything on the machine but this server (all its groups, the
        shared ones too) and the client."""
        if self.machine is None or self.server is None:
            return None
        return max(0.0, self.machine - (self.server_total() or 0.0) - self.client)

    def report(self, moves: int, what: str, requests: int | None = None, shared: dict[str, str] | None = None) -> None:
        """Print the client's CPU, the server's per move by group (`what` says what a move
        is), and the machine's load. `shared` names groups whose processes serve others
        too on this machine (with why): printed apart, and left out of the totals."""
        shared = shared or {}
        print(f"client CPU: {self.client:.1f} s ({100 * self.client / self.seconds:.0f}% of one core)")
        if self.server is None or not moves:
            return
        cores = os.cpu_count() or 1
        total = self.server_total(shared) or 0.0
        per = 1000 / moves
        parts = ", ".join(
            f"{name} {per * (u + s):.2f} = user {per * u:.2f} + system {per * s:.2f}"
            for name, (u, s) in self.server.items()
            if name not in shared
        )
        print(f"server CPU per accepted move ({what}): {per * total:.2f} ms ({parts})")
        for name, why in shared.items():
            u, s = self.server[name]
            print(f"  plus {name} {per * (u + s):.2f} ms = user {per * u:.2f} + system {per * s:.2f} ({why})")
        capacity = (
            f"at that cost {cores} cores serve at most {cores * moves / total:.0f} moves/s with nothing else running"
            if total
            else ""
        )
        if requests:
            print(f"  per request {1000 * total / requests:.2f} ms; {capacity}")
        elif capacity:
            print(f"  {capacity}")
        other = self.others()
        if self.machine is not None and other is not None:
            # What else ran on the cores meanwhile: on a shared machine, why moves/s moved.
            ours = self.server_total() or 0.0
            print(
                f"machine: {self.machine / self.seconds:.2f} of {cores} cores busy (this server "
                f"{ours / self.seconds:.2f}, the client {self.client / self.seconds:.2f}, "
                f"anything else {other / self.seconds:.2f})"
            )
