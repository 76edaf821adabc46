"""Benchmark: hostile statement files (statements/reading.py), each read in a fresh Python process.

- the one-row workbook whose cell sits at column 5,000,000 (a 1.6 KB file that once kept a worker
  busy for minutes): seconds until it is refused (goal: under 1 s);
- a 185 KB workbook that unpacks to 189 MB (which once took 3 GB): seconds and peak memory;
- the largest workbook the unpacked budget lets through (49 MB: two million tiny shared strings and
  rows of 40 cells naming them): seconds and peak memory (it may run into the time budget);
- not hostile, for comparison: a 50,000-row Org Portal workbook, the largest statement allowed.

Times are CPU seconds (the machine may be busy); peak memory is the process's resident peak (VmHWM:
``ru_maxrss`` would include the parent's, whose peak a child inherits), Django's settings loaded
(goal: under 200 MB), next to that of the same process reading nothing. Writes bench/results/hostile_statements.json. No database;
``make bench`` runs it.

    .venv/bin/python bench/hostile_statements.py
"""

import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from support import BACKEND, RESULTS_DIR

RESULTS = RESULTS_DIR / "hostile_statements.json"
GOAL_REFUSAL_SECONDS = 1.0
GOAL_PEAK_MB = 200
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"

# Reads the file named on its command line; prints seconds, peak memory (MB) and the outcome as JSON.
READER = """
import json, os, sys, time
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from statements.parsing import StatementError, statement_parse
data = open(sys.argv[1], "rb").read() if len(sys.argv) > 1 else None
started = time.process_time()
try:
    outcome = f"{len(statement_parse(data).rows)} rows" if data else "nothing read"
except StatementError as error:
    outcome = str(error)
seconds = time.process_time() - started
peak_kb = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"cpu_seconds": round(seconds, 3), "peak_mb": peak_kb // 1024, "outcome": outcome}))
"""


def workbook(sheet: bytes, *, shared: bytes = b"") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr(
            "xl/workbook.xml",
            f'<workbook xmlns="{MAIN}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            '<sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
        )
        archive.writestr(
            "xl/_rels/workbook.xml.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
        )
        if shared:
            archive.writestr("xl/sharedStrings.xml", shared)
        archive.writestr("xl/worksheets/sheet1.xml", sheet)
    return buffer.getvalue()


def sheet_of(rows: bytes) -> bytes:
    return (
        f'<worksheet xmlns="{MAIN}"><sheetData>'.encode()
        + rows
        + b"</sheetData></worksheet>"
    )


def hostile_files() -> dict[str, bytes]:
    column_5m = workbook(
        sheet_of(b'<row r="1">' + b'<c r="JXLKR1"><v>1</v></c>' * 40 + b"</row>")
    )
    # 189 MB of rows of cells, as the probe's file: each row repeats the same cells.
    row = b'<row><c t="inlineStr"><is><t>x</t></is></c>' * 1 + b"</row>"
    unpacked_189mb = workbook(sheet_of(row * (189 * 1024 * 1024 // len(row))))
    # Under the budget: a shared-strings part of ~2 million tiny strings and rows of 40 cells naming them.
    strings = 2_000_000
    shared = (
        f'<sst xmlns="{MAIN}">'.encode()
        + b"".join(b"<si><t>%d</t></si>" % n for n in range(strings))
        + b"</sst>"
    )
    cells = b"".join(b'<c t="s"><v>%d</v></c>' % n for n in range(40))
    budget_left = 49 * 1024 * 1024 - len(shared)
    at_budget = workbook(
        sheet_of((b"<row>" + cells + b"</row>") * (budget_left // (len(cells) + 11))),
        shared=shared,
    )
    return {
        "column_5000000": column_5m,
        "unpacked_189mb": unpacked_189mb,
        "at_unpacked_budget": at_budget,
        "org_portal_50000_rows": org_portal_workbook(50_000),
    }


def org_portal_workbook(rows: int) -> bytes:
    """Not hostile: the largest statement allowed, as the Org Portal's Excel export (shared strings),
    so that the time budget is seen to leave it room."""
    header = [
        "Receipt No.",
        "Completion Time",
        "Details",
        "Transaction Status",
        "Paid In",
        "Balance",
        "A/C No.",
    ]
    strings = [*header, "Completed"]
    lines = [
        b'<row r="1">'
        + b"".join(
            b'<c r="%s1" t="s"><v>%d</v></c>' % (b"ABCDEFG"[i : i + 1], i)
            for i in range(7)
        )
    ]
    for line in range(2, rows + 2):
        first = len(strings)
        strings += [
            f"SLK{line:07d}",
            "2026-11-22 10:30:00",
            f"Pay Bill from 2547***126 - JOHN DOE {line}",
            f"4KQ{line:05d}",
        ]
        cells = [
            (b"A", first),
            (b"B", first + 1),
            (b"C", first + 2),
            (b"D", len(header)),
            (b"G", first + 3),
        ]
        lines.append(
            b'<row r="%d">' % line
            + b"".join(
                b'<c r="%s%d" t="s"><v>%d</v></c>' % (column, line, index)
                for column, index in cells[:4]
            )
            + b'<c r="E%d"><v>1000</v></c><c r="F%d"><v>%d</v></c>'
            % (line, line, 50_000 + line)
            + b'<c r="G%d" t="s"><v>%d</v></c>' % (line, cells[4][1])
        )
    shared = (
        f'<sst xmlns="{MAIN}">'.encode()
        + b"".join(f"<si><t>{text}</t></si>".encode() for text in strings)
        + b"</sst>"
    )
    return workbook(sheet_of(b"</row>".join(lines) + b"</row>"), shared=shared)


def read_in_a_fresh_process(path: str | None) -> dict:
    answer = subprocess.run(
        [sys.executable, "-c", READER, *([path] if path else [])],
        cwd=BACKEND,
        env={**os.environ, "PYTHONPATH": str(BACKEND)},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(answer.stdout.strip().splitlines()[-1])


def main() -> None:
    results: dict = {
        "goal_refusal_seconds": GOAL_REFUSAL_SECONDS,
        "goal_peak_mb": GOAL_PEAK_MB,
    }
    results["reading_nothing"] = read_in_a_fresh_process(None)
    with tempfile.TemporaryDirectory() as directory:
        for name, data in hostile_files().items():
            path = Path(directory) / f"{name}.xlsx"
            path.write_bytes(data)
            figures = read_in_a_fresh_process(str(path))
            results[name] = {"file_kb": round(len(data) / 1024, 1), **figures}
            print(f"{name}: {results[name]}")
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    assert results["column_5000000"]["cpu_seconds"] < GOAL_REFUSAL_SECONDS, results[
        "column_5000000"
    ]
    assert all(
        results[name]["peak_mb"] < GOAL_PEAK_MB
        for name in ("unpacked_189mb", "at_unpacked_budget")
    ), results


if __name__ == "__main__":
    main()
