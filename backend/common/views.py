from django.http import HttpRequest, JsonResponse


def csrf_failure(request: HttpRequest, reason: str = "") -> JsonResponse:
    """A JSON 403 the React client can show, instead of Django's HTML page."""
    return JsonResponse(
        {"detail": "Your session has expired. Please reload the page and try again.", "code": "csrf_failed"},
        status=403,
    )
