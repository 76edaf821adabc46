"""The embed: a campaign's progress and its pledge and give forms inside another website's page.

``GET /embed/campaign/{id}`` is a small page of plain HTML and a few lines of CSS (no React, no
bundle): the campaign's figures from its cached public answer (``campaigns.caching``), a pledge form
and a 'Give' button. ``/embed.js`` (a few hundred bytes) is the script a church's website includes: it
puts the page in an iframe sized to its container and grows it to the page's height, told by
``postMessage`` (each side checks the other's origin). A site that allows no scripts uses the iframe
snippet, or a plain link to the donate page (the share panel gives all three).

Framing: the page's ``frame-ancestors`` lists only the websites the campaign's organization registered
(``organizations.EmbedOrigin``; none: ``'none'``); every other page of Harambee keeps
``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``.

No cookie is needed: a browser that blocks third-party cookies sends none to the frame, so neither the
session nor Django's CSRF cookie can be relied on. The pledge form carries a signed token instead,
made at each render and bound to the campaign and the time (``EMBED_FORM_SECONDS``); its POST (same
path) is taken only with a valid token for this campaign, once, and, when the browser says where it came from,
from Harambee's own origin (the frame itself: a form on another site posting here says its own origin).
The pledge is a visitor's (never a signed-in account's, even if a cookie came along), so a forged post
could act for nobody; the address limits of a pledge apply as to every pledge (``pledge_create``). The
payment is not made in the frame: 'Give' and, after a pledge, 'Pay now' open Harambee's own pages in a
new top-level window, where the visitor's cookies and the usual CSRF protection work as on the site.
"""

import hashlib
import json
import secrets

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_safe

from campaigns.caching import public_campaign_get
from common.cache_control import PRIVATE
from common.errors import NotFoundError, RateLimitedError, ServiceError
from common.ratelimit import client_ip
from config.pledge_form import FIELD_MAX_LENGTH, _whole
from organizations.selectors import embed_origins_list
from pledges.services import pledge_create

EMBED_LANGUAGES = ("en", "sw")
# How long a rendered pledge form may be sent: long enough to type slowly, short enough that a token
# copied out of the page is soon worthless.
EMBED_FORM_SECONDS = 2 * 60 * 60
FORM_TOKEN_SALT = "config.embed.pledge-form"  # noqa: S105 (not a secret: names what the key signs)
EMBED_FIELDS = ("name", "email", "phone", "amount")

# The loader a website includes (<script src=".../embed.js" data-campaign="ID" async>). It puts an iframe
# of the embed after itself (or in the element data-target names), as wide as its container, and sets
# its height from the frame's messages, taken only from Harambee's origin and that frame's window.
LOADER_JS = """(function(){var s=document.currentScript;if(!s)return;var o=new URL(s.src).origin,d=s.dataset,
c=(d.campaign||"").replace(/\\D/g,"");if(!c)return;var l=d.lang==="sw"||d.lang==="en"?"?lang="+d.lang:"",
f=document.createElement("iframe");f.src=o+"/embed/campaign/"+c+l;f.title=d.title||"Harambee";
f.style.cssText="display:block;width:100%;max-width:"+(d.maxWidth||"480px")+";height:560px;border:0";
var t=d.target&&document.getElementById(d.target);t?t.appendChild(f):s.parentNode.insertBefore(f,s.nextSibling);
addEventListener("message",function(e){var m=e.data;if(e.origin!==o||e.source!==f.contentWindow||!m||
m.harambee!=="embed-height"||typeof m.height!=="number")return;f.style.height=Math.min(Math.max(m.height,120),4000)+"px"})})();
"""


def _form_token(campaign_id: int) -> str:
    """Signed: the campaign, the time (the signer's) and a random part, so that each render's form is
    its own (it records one pledge)."""
    return signing.dumps({"campaign": campaign_id, "form": secrets.token_urlsafe(9)}, salt=FORM_TOKEN_SALT)


def _form_token_valid(token: str, campaign_id: int) -> bool:
    try:
        data = signing.loads(token, salt=FORM_TOKEN_SALT, max_age=EMBED_FORM_SECONDS)
    except signing.BadSignature:  # also SignatureExpired
        return False
    return isinstance(data, dict) and data.get("campaign") == campaign_id


def _own_origin(request: HttpRequest) -> set[str]:
    """Where the frame's own page is served from, as a browser writes it in ``Origin``."""
    return {f"{request.scheme}://{request.get_host()}", settings.SITE_URL}


def _language(request: HttpRequest) -> str:
    """``?lang=sw|en``, else what LocaleMiddleware chose (the language cookie, else Accept-Language)."""
    asked = request.GET.get("lang", "")
    return asked if asked in EMBED_LANGUAGES else translation.get_language() or settings.LANGUAGE_CODE


def _campaign_or_404(campaign_id: int) -> dict[str, object]:
    try:
        public = public_campaign_get(campaign_id=campaign_id)
    except NotFoundError:
        raise Http404 from None
    data: dict[str, object] = json.loads(public.json)
    return data


def _ksh(amount: object) -> str:
    return f"Ksh {int(str(amount)):,}"


def _page(
    request: HttpRequest,
    *,
    campaign_id: int,
    language: str,
    values: dict[str, str | bool] | None = None,
    error: ServiceError | None = None,
    pledge_code: str = "",
    status: int = 200,
) -> HttpResponse:
    with translation.override(language):
        campaign = _campaign_or_404(campaign_id)
        origins = [o.origin for o in embed_origins_list(organization_id=int(str(campaign["organization_id"])))]
        nonce = request.csp_nonce  # type: ignore[attr-defined]
        html = render_to_string(
            "embed/campaign.html",
            {
                "language": language,
                "campaign": campaign,
                "pledged": _ksh(campaign["pledged_total"]),
                "raised": _ksh(campaign["raised_total"]),
                "goal": _ksh(campaign["goal"]),
                "percent": campaign["progress_percent"],
                "open": campaign["status"] == "active" and not campaign["has_ended"],
                "site": settings.SITE_URL,
                "action": f"/embed/campaign/{campaign_id}" + (f"?lang={language}" if request.GET.get("lang") else ""),
                "token": _form_token(campaign_id),
                "values": values or {},
                "error": error,
                "field_errors": (error.field_errors or {}) if error else {},
                "pledge_code": pledge_code,
                "origins_json": json.dumps(origins),
                "nonce": nonce,
            },
        )
    response = HttpResponse(html, status=status)
    response["Cache-Control"] = PRIVATE  # its form token is this render's
    response["Content-Language"] = language
    response["Vary"] = "Accept-Language, Cookie"
    # Only the organization's registered websites may frame it; its inline script and style by nonce.
    response._csp_replace = {  # type: ignore[attr-defined]
        "frame-ancestors": origins or ["'none'"],
        "script-src": ["'self'", f"'nonce-{nonce}'"],
        "style-src": ["'self'", f"'nonce-{nonce}'"],
    }
    if isinstance(error, RateLimitedError) and error.retry_after:
        response["Retry-After"] = str(error.retry_after)
    return response


@csrf_exempt  # the signed form token and the Origin check stand in for the CSRF cookie (see above)
@xframe_options_exempt  # its CSP's frame-ancestors says who may frame it
@require_http_methods(["GET", "HEAD", "POST"])
def embed_campaign(request: HttpRequest, campaign_id: str) -> HttpResponse:
    """GET: the embed of the campaign; POST: its pledge form."""
    number = int(campaign_id) if len(campaign_id) <= 18 else 0
    language = _language(request)
    if request.method != "POST":
        return _page(request, campaign_id=number, language=language)
    values: dict[str, str | bool] = {
        field: request.POST.get(field, "").strip()[:FIELD_MAX_LENGTH] for field in EMBED_FIELDS
    }
    values["isAnonymous"] = "isAnonymous" in request.POST
    origin = request.headers.get("Origin")
    if (origin is not None and origin not in _own_origin(request)) or not _form_token_valid(
        request.POST.get("token", ""), number
    ):
        with translation.override(language):
            stale = ServiceError(
                translation.gettext("This form has expired. Please fill it in again."), code="form_expired"
            )
        return _page(request, campaign_id=number, language=language, values=values, error=stale, status=403)
    # Each rendered form records one pledge: sent again (a reload of the thank-you, a replay), it is refused.
    used = f"embed:form-used:{hashlib.sha256(request.POST['token'].encode()).hexdigest()}"
    if not cache.add(used, True, timeout=EMBED_FORM_SECONDS + 60):
        with translation.override(language):
            again = ServiceError(
                translation.gettext(
                    "This form was already sent and its pledge recorded. To pledge again, fill it in anew."
                ),
                code="form_used",
            )
        return _page(request, campaign_id=number, language=language, error=again, status=409)
    with translation.override(language):
        try:
            pledge = pledge_create(
                campaign_id=number,
                amount=_whole(str(values["amount"])),
                name=str(values["name"]),
                email=str(values["email"]),
                phone=str(values["phone"]),
                is_anonymous=bool(values["isAnonymous"]),
                viewer=None,  # a visitor's pledge, whatever cookie came along
                client_ip=client_ip(request),
            )
        except ServiceError as refusal:
            cache.delete(used)  # refused: the form, corrected, may be sent again
            return _page(
                request, campaign_id=number, language=language, values=values, error=refusal, status=refusal.status
            )
    return _page(request, campaign_id=number, language=language, pledge_code=pledge.code, status=201)


@require_safe
def embed_loader(request: HttpRequest) -> HttpResponse:
    """/embed.js: the loader a website includes; the same for everyone, kept by browsers an hour."""
    response = HttpResponse(LOADER_JS, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "public, max-age=3600"
    # Read by any website's page: a script is not subject to CORS, this says it may be loaded cross-site.
    response["Cross-Origin-Resource-Policy"] = "cross-origin"
    return response
