import logging

from django.core.cache import cache
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)
# Health answers describe this moment: never from the micro-cache or any other.
NO_STORE = {"Cache-Control": "no-store"}


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A JSON 403 the React client can show, instead of Django's HTML page; a form a browser sent
    itself (the pledge form without JavaScript, config/pledge_form.py) gets the sentence as text."""
    detail = "Your session has expired. Please reload the page and try again."
    if not request.path.startswith("/api/"):
        return HttpResponse(detail, status=403, content_type="text/plain; charset=utf-8")
    return JsonResponse({"detail": detail, "code": "csrf_failed"}, status=403)


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: the process answers. Touches nothing shared, so a database outage does not get
    every instance restarted at once."""
    return JsonResponse({"status": "ok"}, headers=NO_STORE)


def _database_ready() -> bool:
    try:
        connection.ensure_connection()
        # Unapplied migrations mean this code is ahead of the schema: keep it out of the pool.
        executor = MigrationExecutor(connection)
        return not executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError:
        logger.exception("The database is not reachable")
        return False


def _cache_ready() -> bool:
    try:
        cache.set("readyz", "ok", timeout=10)
        return bool(cache.get("readyz") == "ok")
    except Exception:  # each cache backend raises its own errors (redis, database)
        logger.exception("The cache is not reachable")
        return False


@require_safe
def readyz(request: HttpRequest) -> JsonResponse:
    """Readiness, for the load balancer: the database is reachable with every migration applied,
    and the shared cache answers. 503 with the failing check otherwise."""
    checks = {"database": _database_ready(), "cache": _cache_ready()}
    ready = all(checks.values())
    body = {
        "status": "ok" if ready else "unavailable",
        "checks": {name: "ok" if ok else "failed" for name, ok in checks.items()},
    }
    return JsonResponse(body, status=200 if ready else 503, headers=NO_STORE)
