"""Benchmark: the production build as a phone sees it (Lighthouse) and under load (wrk).

Serves the built app with gunicorn as `make run` does (2 workers x 4 threads on this 2-core machine)
against PostgreSQL with the demo data, then:
- Lighthouse, default mobile mode, 3 runs per public page, medians of the category scores, LCP, TBT,
  CLS and the bytes transferred;
- wrk, 50 connections for --seconds per endpoint: GET /api/campaigns/{id}, GET /campaign/{id} (HTML with
  the campaign embedded) and GET /api/campaigns?q=...; requests/s, p50, p95, p99, errors.
Writes bench/results/web.json and bench/results/SUMMARY.md.

    .venv/bin/python bench/web.py [--seconds 30] [--runs 3]
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.request import urlopen

from support import BACKEND, REPO, RESULTS_DIR, ensure_database, free_port, start_server

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/h_bench_web"
LIGHTHOUSE = REPO / "bench" / "tools" / "node_modules" / ".bin" / "lighthouse"
CHROME_FLAGS = "--headless --no-sandbox --disable-gpu --disable-background-networking"
WORKERS, THREADS = 2, 4
GOALS = {"performance": 95, "accessibility": 95, "best-practices": 95, "seo": 95}


def lighthouse(url: str, runs: int) -> dict[str, Any]:
    reports = []
    for _ in range(runs):
        with tempfile.NamedTemporaryFile(suffix=".json") as output:
            subprocess.run(  # noqa: S603 - fixed tool and arguments
                [
                    str(LIGHTHOUSE),
                    url,
                    "--quiet",
                    "--output=json",
                    f"--output-path={output.name}",
                    f"--chrome-flags={CHROME_FLAGS}",
                    "--only-categories=performance,accessibility,best-practices,seo",
                ],
                check=True,
                env={**os.environ, "CHROME_PATH": "/usr/bin/chromium"},
            )
            reports.append(json.loads(Path(output.name).read_text()))

    def median(pick: Any) -> float:
        return round(statistics.median(pick(report) for report in reports), 3)

    audits = lambda report, name: report["audits"][name]["numericValue"]  # noqa: E731
    return {
        **{name: median(lambda r, n=name: r["categories"][n]["score"] * 100) for name in GOALS},
        "lcp_ms": median(lambda r: audits(r, "largest-contentful-paint")),
        "tbt_ms": median(lambda r: audits(r, "total-blocking-time")),
        "cls": median(lambda r: audits(r, "cumulative-layout-shift")),
        "transfer_kb": median(lambda r: audits(r, "total-byte-weight") / 1000),
    }


def wrk(url: str, seconds: int) -> dict[str, Any]:
    output = subprocess.run(  # noqa: S603 - fixed tool and arguments
        ["wrk", "-t2", "-c50", f"-d{seconds}s", "-s", str(REPO / "bench" / "wrk-report.lua"), url],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def summary_markdown(results: dict[str, Any]) -> str:
    lines = [
        "# Benchmark summary",
        "",
        f"{results['date']} on {results['machine']}. Server: {results['server']}. Produced by `make bench`.",
        "",
        "## Lighthouse (mobile, median of %d runs)" % results["lighthouse_runs"],
        "",
        "| Page | Perf | A11y | Best pr. | SEO | LCP ms | TBT ms | CLS | Transfer KB |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for page, f in results["lighthouse"].items():
        lines.append(
            f"| {page} | {f['performance']:.0f} | {f['accessibility']:.0f} | {f['best-practices']:.0f} | "
            f"{f['seo']:.0f} | {f['lcp_ms']:.0f} | {f['tbt_ms']:.0f} | {f['cls']:.3f} | {f['transfer_kb']:.0f} |"
        )
    lines += [
        "",
        f"## Load (wrk, 50 connections, {results['load_seconds']} s each)",
        "",
        "| Request | req/s | p50 ms | p95 ms | p99 ms | errors |",
        "|---|---|---|---|---|---|",
    ]
    for name, f in results["load"].items():
        lines.append(
            f"| {name} | {f['rps']:.0f} | {f['p50_ms']:.1f} | {f['p95_ms']:.1f} | {f['p99_ms']:.1f} | "
            f"{f['errors'] + f['non_2xx']} |"
        )
    for name, path in (("Campaign search", "campaigns_search.json"),):
        search = RESULTS_DIR / path
        if search.exists():
            figures = json.loads(search.read_text())
            lines += [
                "",
                f"## {name} over {figures['campaigns']:,} campaigns",
                "",
                f"median {figures['median_ms']} ms, p95 {figures['p95_ms']} ms (goal p95 <= {figures['goal_p95_ms']} ms).",
            ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    database_url = os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL)
    if not database_url.startswith("postgres"):
        sys.exit("This benchmark needs PostgreSQL: set DATABASE_URL=postgres://...")
    ensure_database(database_url)
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "SITE_URL": f"http://127.0.0.1:{port}"}
    python = [sys.executable, "manage.py"]
    for command in (["migrate", "-v0"], ["createcachetable"], ["collectstatic", "--noinput", "-v0"], ["load_demo_data"]):
        subprocess.run([*python, *command], cwd=BACKEND, env=env, check=True, capture_output=True)  # noqa: S603

    server = start_server(port, env, workers=WORKERS, threads=THREADS)
    base = f"http://127.0.0.1:{port}"
    try:
        with urlopen(f"{base}/api/campaigns?type=pledging&page_size=1") as response:  # noqa: S310 - loopback
            campaign_id = json.loads(response.read())[0]["id"]
        pages = ["/", "/explore", f"/campaign/{campaign_id}", f"/campaign/{campaign_id}/donate"]
        results: dict[str, Any] = {
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
            "server": f"gunicorn {WORKERS} workers x {THREADS} threads, PostgreSQL, whitenoise (brotli)",
            "lighthouse_runs": args.runs,
            "lighthouse": {page: lighthouse(base + page, args.runs) for page in pages},
            "load_seconds": args.seconds,
            "load": {
                "GET /api/campaigns/{id}": wrk(f"{base}/api/campaigns/{campaign_id}", args.seconds),
                "GET /campaign/{id} (HTML)": wrk(f"{base}/campaign/{campaign_id}", args.seconds),
                "GET /api/campaigns?q=": wrk(f"{base}/api/campaigns?q=church&type=pledging", args.seconds),
            },
        }
    finally:
        server.terminate()
        server.wait(timeout=10)

    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    (RESULTS_DIR / "web.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    (RESULTS_DIR / "SUMMARY.md").write_text(summary_markdown(results), encoding="utf-8")
    print(summary_markdown(results))


if __name__ == "__main__":
    main()
