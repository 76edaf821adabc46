"""Benchmark: the embed (backend/config/embed.py) on a church's website, as a phone sees it (issue #54).

The real server (gunicorn, PostgreSQL, the demo data) and a plain host page on another local port
holding the embed's script (``/embed.js``, as the campaign's share panel gives it), its origin
registered for the campaign's organization. It reports:
- the widget's first load: every response from Harambee the host page's visit brings (the loader and
  the embed page: its HTML carries its CSS and its one small script), their bytes as sent and gzipped
  (level 6, as nginx sends text; this server alone does not compress), against the 30 KB gzip budget;
- the widget's LCP inside the host page, counted from the host page's navigation, and the host page's
  own, in Chromium with Lighthouse's mobile throttling (bench/tools/embed-lcp.mjs), median of --runs.
The host page is on 127.0.0.1 as the server: the same site, so Chromium keeps the frame in the page's
process, where the throttling applies (a real church's website is another site; the bytes are the same).
Writes bench/results/embed.json.

    .venv/bin/python bench/embed.py [--runs 5]
"""

import argparse
import gzip
import json
import os
import platform
import statistics
import subprocess
import threading
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.request import urlopen

from support import REPO, RESULTS_DIR, django_on_postgres, free_port, start_server

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/h_bench_embed"
BUDGET_GZIP_KB = 30
GZIP_LEVEL = 6  # nginx's gzip_comp_level in deploy/nginx is lower or equal: this is no flattery


def host_page(snippet: str) -> bytes:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>St. Paul\'s Thika</title>'
        '<meta name="viewport" content="width=device-width,initial-scale=1"></head><body><main>'
        f"<h1>Welcome to St. Paul's Thika</h1><p>Our harambee for the new roof:</p>{snippet}</main></body></html>"
    ).encode()


def serve_host(port: int, body: bytes) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the standard library's name
            return

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def campaign_with_registered_host(host: str) -> int:
    """The demo ministry campaign (loaded if missing), its organization allowing ``host``."""
    from django.core.management import call_command

    from campaigns.models import Campaign, CampaignStatus
    from organizations.models import EmbedOrigin

    call_command("createcachetable", verbosity=0)  # the shared cache, in the database (no Redis needed)
    if not Campaign.objects.filter(status=CampaignStatus.ACTIVE).exists():
        call_command("load_demo_data", verbosity=0)
    campaign = Campaign.objects.filter(status=CampaignStatus.ACTIVE).order_by("id").first()
    assert campaign is not None
    EmbedOrigin.objects.get_or_create(organization=campaign.organization, origin=host)
    return campaign.pk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    env = django_on_postgres(DEFAULT_DATABASE_URL)
    port, host_port = free_port(), free_port()
    site, host = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{host_port}"
    env.update({"SITE_URL": site, "HARAMBEE_ENV": "local", "SECRET_KEY": env.get("SECRET_KEY", "local-bench-embed")})
    os.environ.update(env)
    campaign_id = campaign_with_registered_host(host)
    snippet = f'<script src="{site}/embed.js" data-campaign="{campaign_id}" data-lang="en" async></script>'
    server = start_server(port, env, workers=2)
    host_server = serve_host(host_port, host_page(snippet))
    try:
        bodies = {
            "/embed.js": urlopen(f"{site}/embed.js").read(),  # noqa: S310 - our own local server
            f"/embed/campaign/{campaign_id}": urlopen(f"{site}/embed/campaign/{campaign_id}").read(),  # noqa: S310
        }
        measured = subprocess.run(  # noqa: S603 - fixed tool and arguments
            ["node", str(REPO / "bench" / "tools" / "embed-lcp.mjs"), host, site, str(args.runs)],
            check=True,
            capture_output=True,
            text=True,
        )
    finally:
        host_server.shutdown()
        server.terminate()
        server.wait(timeout=10)
    runs = json.loads(measured.stdout)
    first_load = {
        path: {"bytes": len(body), "gzip_bytes": len(gzip.compress(body, compresslevel=GZIP_LEVEL))}
        for path, body in bodies.items()
    }
    gzip_kb = sum(f["gzip_bytes"] for f in first_load.values()) / 1024
    widget = [r["widget_lcp_ms"] for r in runs if r["widget_lcp_ms"] is not None]
    results = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.node()} ({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f})",
        "runs": len(runs),
        "first_load": first_load,
        "responses_in_browser": runs[0]["responses"] if runs else [],
        "first_load_gzip_kb": round(gzip_kb, 2),
        "budget_gzip_kb": BUDGET_GZIP_KB,
        "within_budget": gzip_kb <= BUDGET_GZIP_KB,
        "widget_lcp_ms_median": round(statistics.median(widget)) if widget else None,
        "widget_lcp_ms_runs": [round(v) for v in widget],
        "widget_lcp_element": runs[0]["widget_lcp_element"] if runs else "",
        "host_lcp_ms_median": round(statistics.median(r["host_lcp_ms"] for r in runs if r["host_lcp_ms"])),
    }
    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR / "embed.json").write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
