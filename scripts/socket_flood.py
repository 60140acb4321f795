"""A ping flood from one account's sockets against a daphne process, and another player's
pings meanwhile: how long the others wait for an answer, and what the flood costs the
server (issue #28).

    .venv/bin/python scripts/socket_flood.py                  # both servers, 8 s floods
    .venv/bin/python scripts/socket_flood.py --seconds 4 --only limited

What runs, all on 127.0.0.1: a PostgreSQL database of its own (--database, created and
migrated here, dropped at the end unless --keep) and Redis (--redis) as the channel
layer under a key prefix of the run's own; one Hearts room, one flooding account and
--listeners other accounts, made through the services. For each server:

- `limited`: daphne as deployed (the socket and account rate limits, pings answered from
  the process's record of the room);
- `unlimited`: the same daphne with the limits raised out of reach and every ping read
  from the database (`LIVE_PING_FRESH_SECONDS=0`), as before the limits;

it measures the listeners' pings (each its own account and socket, every --every
seconds, staggered) for --seconds alone, then again while the flooder's --flooders
sockets send pings as fast as they can, reconnecting whenever they are closed. It prints
the listeners' latencies (median, p90, max), what the flooder sent and was answered, the
close codes it got, and the CPU seconds and memory (RSS) of the daphne process.

Every loop is bounded in time and the processes are stopped and the database dropped
however the run ends.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.multiproc.processes import own_database  # noqa: E402
from tests.servers import daphne_argv, free_port, running, server_env, wait_until_serving  # noqa: E402
from tests.socket_load.flood import flood_sockets, ping_steadily  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")

SERVERS = {
    "limited": {},
    "unlimited": {
        "WS_SOCKET_BURST": "1000000000",
        "WS_ACCOUNT_BURST": "1000000000",
        "LIVE_PING_FRESH_SECONDS": "0",
    },
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=8.0, help="how long each measurement lasts")
    parser.add_argument("--flooders", type=int, default=4, help="the flooding account's sockets")
    parser.add_argument("--listeners", type=int, default=4, help="other accounts pinging meanwhile")
    parser.add_argument("--every", type=float, default=0.5, help="seconds between a listener's pings")
    parser.add_argument("--only", choices=sorted(SERVERS), help="measure one server only")
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="gameserver_socket_flood")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--keep", action="store_true", help="keep the database")
    args = parser.parse_args()

    prefix = f"socket-flood-{secrets.token_hex(4)}"
    with own_database(args.postgres, args.database, keep=args.keep) as database:
        env = server_env(
            database,
            DEBUG="0",
            REDIS_URL=args.redis,
            CHANNELS_REDIS_URL=args.redis,
            CHANNELS_PREFIX=prefix,
            CELERY_BROKER_URL=args.redis,
            PYTHONUNBUFFERED="1",
        )
        os.environ.update(env)
        import django

        django.setup()
        code, flooder, listeners = seed(args.listeners)
        try:
            for name, extra in SERVERS.items():
                if args.only in (None, name):
                    measure(name, {**env, **extra}, code, flooder, listeners, args)
        finally:
            client = redis.Redis.from_url(args.redis)
            for key in client.scan_iter(match=f"{prefix}*", count=1000):
                client.delete(key)


def seed(listeners: int) -> tuple[str, str, list[str]]:
    """A Hearts room, the flooder's token and the listeners' tokens."""

    from accounts.models import SignIn, User
    from accounts.services.sign_ins import sign_in_create
    from games.services import lobby

    def user(name: str) -> Any:
        return User.objects.create_user(username=f"{name}-{secrets.token_hex(3)}", password="flood-9-secret")

    code = lobby.room_create(host=user("host"), game="hearts", options={}).code
    tokens = [sign_in_create(user=user(f"p{n}"), how=SignIn.How.PASSWORD) for n in range(listeners + 1)]
    return code, tokens[0], tokens[1:]


@dataclass
class Usage:
    cpu: float  # seconds of CPU, user and system
    rss: int  # bytes

    @classmethod
    def of(cls, pid: int) -> Usage:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        # After the command: state is field 3, utime 14 and stime 15, rss 24 (1-based).
        return cls((int(fields[11]) + int(fields[12])) / CLOCK_TICKS, int(fields[21]) * PAGE)


def measure(
    name: str, env: dict[str, str], code: str, flooder: str, listeners: list[str], args: argparse.Namespace
) -> None:
    port = free_port()
    log = ROOT / "var" / "socket-flood" / f"daphne-{name}.log"
    with running(daphne_argv(port), env=env, log_path=log) as proc:
        url = f"http://127.0.0.1:{port}"
        wait_until_serving(proc, url, "daphne", str(log), seconds=60)
        room = f"/ws/rooms/{code}/"
        quiet = asyncio.run(ping_steadily(url, room, listeners, args.seconds, args.every))
        before = Usage.of(proc.pid)

        async def flooded() -> Any:
            return await asyncio.gather(
                flood_sockets(url, [room] * args.flooders, flooder, args.seconds),
                ping_steadily(url, room, listeners, args.seconds, args.every),
            )

        started = time.monotonic()
        flood, pings = asyncio.run(flooded())
        elapsed = time.monotonic() - started
        after = Usage.of(proc.pid)
        errors = [line for line in log.read_text(errors="replace").splitlines() if "Traceback" in line]
    closes = ", ".join(f"{code} x{n}" for code, n in sorted(flood.closes.items())) or "none"
    print(f"== {name} daphne ({args.flooders} flooding sockets, {len(listeners)} listeners every {args.every:g} s)")
    print(f"   others' pings, no flood:   {quiet.summary()}")
    print(f"   others' pings, flooded:    {pings.summary()}" + (f", closed {pings.closes}" if pings.closes else ""))
    print(
        f"   the flood: {flood.sent} pings sent in {elapsed:.1f} s, {flood.pongs} answered, "
        f"{flood.sockets} sockets opened, closed by the server: {closes}"
        + (f", {len(flood.errors)} connections failed" if flood.errors else "")
    )
    print(
        f"   daphne: {after.cpu - before.cpu:.1f} s of CPU during the flood, "
        f"RSS {before.rss / 2**20:.0f} MB before, {after.rss / 2**20:.0f} MB after; "
        f"{len(errors)} tracebacks in its log ({log})"
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
