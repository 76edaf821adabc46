#!/usr/bin/env python3
"""`make test`: runs each stage (a target of the Makefile) in turn, then a table of each stage's time and
the tests it ran, and a closing line `N passed, N failed, N skipped` over all of them.

A stage already made is not made again as a prerequisite of a later one (`make -o STAGE`: the app is built
once, by its own stage `build`, for the budgets and e2e stages). Every stage runs even when one before it failed, so the table shows the whole picture; the exit code is
non-zero when any stage failed. A stage that runs no tests (lint, types, budgets) and fails counts as one
failure in the closing line, so that line never says 0 failed over a red run.

Below the table, the tests that failed (and the end-to-end tests that passed only when retried, "flaky"), named
as their runner names them, so a red run's last lines say what to look at.

The counts are read from the closing lines of the runners in a stage's output: pytest's
("3475 passed, 2 skipped in 512.3s"), Vitest's ("Tests  239 passed (239)") and Playwright's list
reporter's ("  86 passed (6.1m)", "  1 failed"), added up when a stage runs several (the e2e shards).

Stages joined by "+" (e.g. test-e2e+test-frontend) run at once, for stages that leave the cores idle
enough to share them; each one's output is printed whole when all of them have ended, and each keeps its own
time in the table. The total is the time of the whole run, not the sum of the stages'.

Usage: test-stages.py STAGE... (each a make target, run as `make STAGE`, or several joined by "+").
"""

import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
PYTEST_SUMMARY = re.compile(r"^=*\s*(\d+ \w+(?:, \d+ \w+)*) in [\d.]+s\b")
VITEST_SUMMARY = re.compile(r"^\s*Tests\s+(.+?)\s+\(\d+\)\s*$")
PLAYWRIGHT_SUMMARY = re.compile(r"^\s+(\d+) (passed|failed|flaky|skipped|interrupted|did not run)(?: \(.+\))?\s*$")
# A failed or flaky test as each runner names it in its summary: pytest's "FAILED path::test - reason",
# "ERROR path::test", Vitest's " FAIL  src/x.test.ts > name", and Playwright's "    [mobile] › e2e/x.spec.ts:12:3 › name"
# under its "  1 failed" or "  1 flaky" line.
PYTEST_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)")
VITEST_FAILED = re.compile(r"^\s*FAIL\s+(.+?)\s*$")
PLAYWRIGHT_NAMED = re.compile(r"^\s+(\[\w+\] › .+?)[\s─]*(?:\(.+\))?\s*$")
# The outcomes of every runner, by how they count in the closing line.
PASSED = {"passed", "xfailed", "xpassed", "flaky"}
FAILED = {"failed", "error", "errors", "interrupted"}
SKIPPED = {"skipped", "deselected", "did not run", "todo"}


@dataclass
class Stage:
    name: str
    seconds: float = 0.0
    exit_code: int = 0
    counts: dict[str, int] = field(default_factory=lambda: {"passed": 0, "failed": 0, "skipped": 0})
    reported: bool = False  # whether any runner's closing line was found
    failed_tests: list[str] = field(default_factory=list)
    flaky_tests: list[str] = field(default_factory=list)
    listing: str = ""  # the Playwright summary list being read: "failed", "flaky" or ""

    def add(self, number: int, outcome: str) -> None:
        for kind, outcomes in (("passed", PASSED), ("failed", FAILED), ("skipped", SKIPPED)):
            if outcome in outcomes:
                self.counts[kind] += number
                self.reported = True


def read_counts(stage: Stage, line: str) -> None:
    line = ANSI.sub("", line).rstrip("\n")
    if stage.listing and (match := PLAYWRIGHT_NAMED.match(line)):
        (stage.failed_tests if stage.listing == "failed" else stage.flaky_tests).append(match.group(1))
        return
    stage.listing = ""
    if match := PYTEST_FAILED.match(line):
        stage.failed_tests.append(match.group(1))
    elif match := VITEST_FAILED.match(line):
        stage.failed_tests.append(match.group(1))
    if match := PYTEST_SUMMARY.match(line):
        for part in match.group(1).split(", "):
            number, outcome = part.split(" ", 1)
            stage.add(int(number), outcome)
    elif match := VITEST_SUMMARY.match(line):
        for part in match.group(1).split(" | "):
            number, outcome = part.split(" ", 1)
            stage.add(int(number), outcome)
    elif match := PLAYWRIGHT_SUMMARY.match(line):
        stage.add(int(match.group(1)), match.group(2))
        if match.group(2) in ("failed", "flaky"):
            stage.listing = match.group(2)


def make_command(name: str, made: list[str]) -> list[str]:
    return ["make", "--no-print-directory", *(f"--old-file={done}" for done in made), name]


def run(name: str, made: list[str]) -> Stage:
    stage = Stage(name)
    print(f"\n==> make {name}", flush=True)
    started = time.monotonic()
    with subprocess.Popen(
        make_command(name, made),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        bufsize=1,
    ) as process:
        assert process.stdout is not None
        for line in process.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            read_counts(stage, line)
    stage.seconds = time.monotonic() - started
    stage.exit_code = process.returncode
    return stage


def run_together(names: list[str], made: list[str]) -> list[Stage]:
    """Stages that leave the cores idle enough to share them: started at once, each one's output kept
    in a file and printed whole, in the order named, once all have ended; each keeps its own time."""
    print(f"\n==> make {' '.join(names)} (at once; each one's output follows when all have ended)", flush=True)
    stages = [Stage(name) for name in names]
    running: list[tuple[Stage, subprocess.Popen[bytes], IO[str], float]] = []
    with tempfile.TemporaryDirectory() as folder:
        for stage in stages:
            output = open(Path(folder) / stage.name, "w+", errors="replace")  # closed below
            process = subprocess.Popen(make_command(stage.name, made), stdout=output, stderr=subprocess.STDOUT)
            running.append((stage, process, output, time.monotonic()))
        # Each one's time is until it ends, whichever ends first.
        while any(stage.seconds == 0.0 for stage, *_ in running):
            for stage, process, _, started in running:
                if stage.seconds == 0.0 and process.poll() is not None:
                    stage.seconds = time.monotonic() - started
                    stage.exit_code = process.returncode
            time.sleep(0.5)
        for stage, _, kept, _ in running:
            print(f"\n==> make {stage.name}", flush=True)
            kept.seek(0)
            for line in kept:
                sys.stdout.write(line)
                read_counts(stage, line)
            kept.close()
            sys.stdout.flush()
    return stages


def minutes(seconds: float) -> str:
    return f"{int(seconds // 60)}:{int(seconds % 60):02d}"


def report(stages: list[Stage], seconds: float) -> int:
    rows = [("stage", "time", "passed", "failed", "skipped", "result")]
    for stage in stages:
        counts = [str(stage.counts[kind]) if stage.reported else "-" for kind in ("passed", "failed", "skipped")]
        rows.append((stage.name, minutes(stage.seconds), *counts, "ok" if stage.exit_code == 0 else "FAILED"))
    total = {kind: sum(stage.counts[kind] for stage in stages) for kind in ("passed", "failed", "skipped")}
    # A stage that failed without a failing test to show for it (lint, types, a runner that crashed).
    total["failed"] += sum(1 for stage in stages if stage.exit_code != 0 and stage.counts["failed"] == 0)
    failed_stages = [stage for stage in stages if stage.exit_code != 0]
    rows.append(
        (
            "total",
            minutes(seconds),
            *(str(total[kind]) for kind in ("passed", "failed", "skipped")),
            "ok" if not failed_stages else f"{len(failed_stages)} FAILED",
        )
    )
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    print()
    for index, row in enumerate(rows):
        if index in (1, len(rows) - 1):
            print("  ".join("-" * width for width in widths))
        print(
            "  ".join(
                cell.ljust(width) if column == 0 else cell.rjust(width)
                for column, (cell, width) in enumerate(zip(row, widths, strict=True))
            )
        )
    for label, attribute in (("failed", "failed_tests"), ("flaky: passed when retried", "flaky_tests")):
        named = [(stage.name, test) for stage in stages for test in getattr(stage, attribute)]
        if named:
            print(f"\n{label}:")
            for stage_name, test in named:
                print(f"  {stage_name}: {test}")
    # The closing line CI reads: plain, alone, the last.
    print(f"{total['passed']} passed, {total['failed']} failed, {total['skipped']} skipped")
    return 1 if failed_stages or total["failed"] else 0


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    started = time.monotonic()
    stages: list[Stage] = []
    made: list[str] = []
    for argument in sys.argv[1:]:
        names = argument.split("+")
        stages += run_together(names, made) if len(names) > 1 else [run(names[0], made)]
        made += names
    return report(stages, time.monotonic() - started)


if __name__ == "__main__":
    sys.exit(main())
