"""Every way the server's answers stray from the served OpenAPI document, read strictly.

Runs the suites that check answers with tests/strict_answers.py (whole matches over HTTP,
the generated client's matches, the engines' play-outs) with `STRICT_ANSWERS_RECORD`
set, so that no check stops its test: every failure of every answer is recorded. Then
prints the distinct failures grouped by the component where the document must change and
the JSON path in the value (array indices as `*`), with how often each was met, which
answers or components met it, and a sample value.

    .venv/bin/python scripts/strict_report.py                 # the default suites, 2 workers
    .venv/bin/python scripts/strict_report.py -n 4 -- -k hearts
    .venv/bin/python scripts/strict_report.py --tests tests/api/test_strict_answers.py
    .venv/bin/python scripts/strict_report.py --from var/strict-answers   # only the report

Exits 1 when anything was recorded, 0 when the document allows every answer.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SUITES = [
    "tests/api/test_strict_answers.py",
    "tests/contract/test_generated_client.py",
    "tests/rules/test_conformance.py",
]
SCHEMAS = "#/components/schemas/"
# What of an answer a failure is about, when it is not the body.
ANSWER_KEYWORDS = {"status", "content-type", "header", "path", "request"}


@dataclass
class Group:
    """One distinct failure: a place in the document, a path in the value, a keyword."""

    count: int = 0
    messages: Counter[str] = field(default_factory=Counter)
    subjects: Counter[str] = field(default_factory=Counter)
    holders: Counter[str] = field(default_factory=Counter)
    tests: set[str] = field(default_factory=set)
    sample: str = ""


def generalized(pointer: str) -> str:
    """A JSON pointer with its array indices as `*`."""
    return re.sub(r"/\d+(?=/|$)", "/*", pointer) or "/"


def component_of(record: dict[str, Any]) -> tuple[str, str]:
    """(the component to change, the place within it) of one failure."""
    schema = str(record.get("schema") or "")
    if schema.startswith(SCHEMAS):
        name, _, rest = schema[len(SCHEMAS) :].partition("/")
        return name, "/" + rest if rest else ""
    if schema:
        return str(record["subject"]), schema
    return str(record["subject"]), ""


def message_of(record: dict[str, Any]) -> str:
    """The message without what changes from one value to the next (codes, seeds, dates)."""
    message = str(record["message"])
    if record["keyword"] in ("type", "format", "pattern", "minimum", "maximum", "minLength", "maxLength"):
        # "'x' is not of type 'integer'": the kind of complaint, the value is the sample.
        message = re.sub(r"^.*? (is not|is too|does not|is less|is greater|is more)", r"value \1", message)
    return message


def load(folder: Path) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.jsonl")):
        with path.open() as lines:
            records.extend(json.loads(line) for line in lines if line.strip())
    return records


def report(records: list[dict[str, Any]]) -> str:
    groups: dict[tuple[str, str, str, str], Group] = defaultdict(Group)
    for record in records:
        component, place = component_of(record)
        keyword = str(record["keyword"])
        path = "-" if keyword in ANSWER_KEYWORDS else generalized(str(record.get("pointer") or ""))
        group = groups[(component, path, keyword, place)]
        group.count += 1
        group.messages[message_of(record)] += 1
        group.subjects[str(record["subject"])] += 1
        if record.get("holder"):
            group.holders[str(record["holder"])] += 1
        if record.get("test"):
            group.tests.add(str(record["test"]))
        if not group.sample and record.get("sample"):
            group.sample = str(record["sample"])
    if not groups:
        return "No failures: the document allows every answer checked.\n"
    out = [f"{len(groups)} distinct failures, {len(records)} in all.", ""]
    current = None
    by_component = Counter(key[0] for key in groups)
    for key in sorted(groups):
        component, path, keyword, place = key
        group = groups[key]
        if component != current:
            current = component
            total = sum(g.count for k, g in groups.items() if k[0] == component)
            out.append(f"== {component}  ({by_component[component]} distinct, {total} in all)")
        where = f"{path}  [{keyword}]" + (f"  schema {place}" if place else "")
        out.append(f"  {where}  x{group.count}")
        for message, count in group.messages.most_common(8):
            out.append(f"      {count:>6}  {message}")
        if len(group.messages) > 8:
            out.append(f"              ... {len(group.messages) - 8} more messages")
        subjects = ", ".join(f"{s} x{n}" for s, n in group.subjects.most_common(4))
        more = f", +{len(group.subjects) - 4} more" if len(group.subjects) > 4 else ""
        out.append(f"      in: {subjects}{more}; {len(group.tests)} test(s)")
        if group.holders:
            out.append("      of type: " + ", ".join(f"{h} x{n}" for h, n in sorted(group.holders.items())))
        if group.sample:
            out.append(f"      sample: {group.sample}")
    return "\n".join(out) + "\n"


def run(tests: list[str], workers: str, folder: Path, extra: list[str]) -> int:
    env = {**os.environ, "STRICT_ANSWERS_RECORD": str(folder)}
    env.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gameserver")
    command = [sys.executable, "-m", "pytest", *tests, "-p", "no:cacheprovider", "-n", workers, "-q", *extra]
    print("$", " ".join(command), file=sys.stderr)
    return subprocess.run(command, cwd=ROOT, env=env, check=False).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tests", nargs="+", default=SUITES, help="the test files to run (default: %(default)s)")
    parser.add_argument("-n", "--workers", default="2", help="pytest-xdist workers (default: %(default)s)")
    parser.add_argument("--from", dest="source", type=Path, help="only report what this folder recorded")
    parser.add_argument("--keep", type=Path, help="record into this folder (kept) instead of a temporary one")
    parser.add_argument("pytest_args", nargs="*", help="after --: more arguments for pytest")
    args = parser.parse_args()
    if args.source is not None:
        records = load(args.source)
    else:
        with tempfile.TemporaryDirectory(prefix="strict-answers-") as temporary:
            folder = args.keep or Path(temporary)
            folder.mkdir(parents=True, exist_ok=True)
            for old in folder.glob("*.jsonl"):
                old.unlink()
            status = run(args.tests, args.workers, folder, args.pytest_args)
            records = load(folder)
            print(f"pytest exited {status}; {len(records)} failures recorded", file=sys.stderr)
    sys.stdout.write(report(records))
    return 1 if records else 0


if __name__ == "__main__":
    sys.exit(main())
