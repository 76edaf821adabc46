"""Settings for every environment, driven by environment variables.

Local use (``make run``, ``make test``) needs no variables at all. A deployment sets
``HARAMBEE_ENV=production`` plus at least ``SECRET_KEY``, ``ALLOWED_HOSTS``, ``DATABASE_URL`` and
the payment and SMS credentials, none of them a local default or placeholder (common/checks.py);
see docs/operations/configuration.md and deployment.md.
"""

import ipaddress
import os
from pathlib import Path

import dj_database_url
from csp.constants import NONCE
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
REPO_DIR = BASE_DIR.parent


def env_bool(name: str, default: bool = False) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Values that only ever make sense on a developer's machine: the defaults below when HARAMBEE_ENV is
# not production, and Safaricom's published sandbox shortcode and passkey. `manage.py check --deploy`
# and a production start refuse every one of them (common/checks.py).
LOCAL_DEFAULTS = {
    "SECRET_KEY": "local-development-only-not-secret",
    "MPESA_CONSUMER_KEY": "local-consumer-key",
    "MPESA_CONSUMER_SECRET": "local-consumer-secret",
    "MPESA_SHORTCODE": "174379",
    "MPESA_PASSKEY": "bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919",
    "MPESA_CALLBACK_TOKEN": "local-callback-token",
    "PAYSTACK_SECRET_KEY": "sk_test_local_simulator",
    "AFRICASTALKING_API_KEY": "local-sms-api-key",
    "AFRICASTALKING_CALLBACK_TOKEN": "local-ussd-callback-token",
    "SECRETS_ENCRYPTION_KEYS": "fb4zur3eDw-NirYj8jFvIv0MdxF8bPDzVfgHJ3GwbmA=",
}
LOOPBACK_HOSTS = {"localhost", "testserver"}


def is_loopback_host(host: str) -> bool:
    try:
        return host in LOOPBACK_HOSTS or ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


# "local" or "production". Production refuses unsafe defaults. Local use says so (`make run` and
# scripts/serve.sh set HARAMBEE_ENV=local); unset, it is assumed only while ALLOWED_HOSTS names this
# machine alone, so a deployment that forgot the variable refuses to start instead of running on the
# local, public defaults above.
HARAMBEE_ENV = os.environ.get("HARAMBEE_ENV", "").strip()
if HARAMBEE_ENV not in {"", "local", "production"}:
    raise ImproperlyConfigured("HARAMBEE_ENV must be 'production' or 'local'.")
IS_PRODUCTION = HARAMBEE_ENV == "production"

DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if IS_PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set when HARAMBEE_ENV=production.")
    SECRET_KEY = LOCAL_DEFAULTS["SECRET_KEY"]

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "" if IS_PRODUCTION else "127.0.0.1,localhost,testserver")
if not HARAMBEE_ENV and (public_hosts := [host for host in ALLOWED_HOSTS if not is_loopback_host(host)]):
    raise ImproperlyConfigured(
        f"ALLOWED_HOSTS names {', '.join(public_hosts)} but HARAMBEE_ENV is not set: set HARAMBEE_ENV=production "
        "for a deployment (docs/operations/deployment.md), or HARAMBEE_ENV=local to run on local defaults."
    )
HARAMBEE_ENV = HARAMBEE_ENV or "local"
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# The public address of the site, used in e-mailed links (password reset, receipts).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "accounts.apps.AdminConfig",  # django.contrib.admin, signing in as accounts/admin_site.py says
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "ninja",
    "django_tasks",
    "django_tasks_db",
    "common",
    "accounts",
    "organizations",
    "collection_accounts",
    "campaigns",
    "feedback",
    "payments",
    "pledges",
    "champions",
    "events",
    "desk",
    "grants",
    "notifications",
    "audit",
    "analytics",
    "privacy",
    "ussd",
    "statements",
    "giving",
    "sms_keywords",
    "spending",
    "config",
]

MIDDLEWARE = [
    # First, so the request id covers everything below it and the access line times all of it.
    "common.middleware.RequestIdMiddleware",
    # A lost database connection answers 503 (JSON under /api/, a short page elsewhere), not 500.
    "common.outages.DatabaseUnavailableMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the django_language cookie (set from the profile at sign-in), else Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "common.middleware.ApiCsrfMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

# The built React app (frontend/dist) is served by Django: index.html as a template,
# its hashed assets by whitenoise.
FRONTEND_DIST = Path(os.environ.get("FRONTEND_DIST", REPO_DIR / "frontend" / "dist"))
# The renderer of the app's first HTML (frontend/src/renderer.ts; scripts/serve.sh starts one), e.g.
# http://127.0.0.1:8001; unset, pages go out for the browser to render. common/page_rendering.py.
RENDERER_URL = os.environ.get("RENDERER_URL", "")
RENDERER_TIMEOUT_SECONDS = float(os.environ.get("RENDERER_TIMEOUT_SECONDS", "0.5"))
RENDERER_RETRY_SECONDS = float(os.environ.get("RENDERER_RETRY_SECONDS", "5"))

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web workers and the task worker share one SQLite file: take the write lock at BEGIN and
    # wait for it, instead of failing with "database is locked" when two transactions upgrade at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"transaction_mode": "IMMEDIATE", "timeout": 20})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Rate-limit counters must be shared by every worker process, so the default cache
# is the database (``createcachetable`` runs with the migrations), never process memory.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "harambee_cache",
        # Beyond this many entries Django drops a third of them, rate-limit counters included; the
        # version of each campaign read (campaigns/caching.py) is one more entry. 300 by default.
        "OPTIONS": {"MAX_ENTRIES": 20_000},
    }
}
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES["default"] = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}

# Background tasks: TASK_BACKEND=db (the default) queues them in the database, rq in Redis (REDIS_URL)
# for RQ workers, which scale to any number of machines. `manage.py task_worker` runs the right worker.
TASK_BACKEND = os.environ.get("TASK_BACKEND", "db")
TASKS: dict[str, dict[str, object]]
if TASK_BACKEND == "db":
    TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
elif TASK_BACKEND == "rq":
    if not REDIS_URL:
        raise ImproperlyConfigured("TASK_BACKEND=rq needs REDIS_URL.")
    INSTALLED_APPS += ["django_rq", "django_tasks_rq"]
    RQ_QUEUES = {"default": {"URL": REDIS_URL}}
    TASKS = {"default": {"BACKEND": "common.task_backends.PrioritizingRQBackend", "QUEUES": ["default"]}}
else:
    raise ImproperlyConfigured("TASK_BACKEND must be 'db' or 'rq'.")

AUTH_USER_MODEL = "accounts.User"
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # one day

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = IS_PRODUCTION
SESSION_COOKIE_AGE = 60 * 60 * 24 * 14
# The CSRF token reaches the React app in the body of GET /api/auth/session, so the
# cookie itself can stay out of JavaScript's reach.
CSRF_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SECURE = IS_PRODUCTION
CSRF_FAILURE_VIEW = "common.views.csrf_failure"
# Unsafe requests under these paths come from payment providers and Africa's Talking, not browsers.
API_CSRF_EXEMPT_PREFIXES: tuple[str, ...] = (
    "/api/payments/callbacks/",
    "/api/ussd/callback/",
    "/api/sms/inbound/",
    "/api/sms/delivery-reports/",
)

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"
X_FRAME_OPTIONS = "DENY"
if IS_PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # The balancer's health checks ask over plain HTTP on the private network.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        # A modal dialog locks the page's scroll with a <style> element (Radix, through
        # react-style-singleton): allowed by the nonce of a page no shared cache keeps (config/spa.py).
        "style-src": ["'self'", NONCE],
        "img-src": ["'self'", "data:", "https:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        # The hosted card checkout opens in a dialog: Paystack's page, or the local simulator's.
        "frame-src": ["'self'", "https://www.youtube-nocookie.com", "https://checkout.paystack.com"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("sw", "Kiswahili")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Django has no Kiswahili date formats: config/formats/sw.
FORMAT_MODULE_PATH = ["config.formats"]
# The visitor's choice of language outlives sessions; the front end never reads it.
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SECURE = IS_PRODUCTION
TIME_ZONE = "Africa/Nairobi"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [FRONTEND_DIST] if FRONTEND_DIST.exists() else []
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# Vite already puts a content hash in every asset name: cache those for a year (static files only: the
# docs' pages and screenshots keep their names when they change).
WHITENOISE_IMMUTABLE_FILE_TEST = r"^/static/.+[.-][0-9a-zA-Z_-]{8,12}\..+$"
# The documentation site (docs/, built by `make docs` into build/docs-site/docs/) is served at /docs/:
# whitenoise serves WHITENOISE_ROOT's files at the site's root, a folder's index.html at its address.
DOCS_SITE_ROOT = REPO_DIR / "build" / "docs-site"
WHITENOISE_ROOT = DOCS_SITE_ROOT if DOCS_SITE_ROOT.exists() else None
WHITENOISE_INDEX_FILE = True
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
MEDIA_URL = "/media/"
# Uploaded campaign covers go through Django's storage API: local files under MEDIA_ROOT by default,
# an S3-compatible bucket (django-storages) when AWS_STORAGE_BUCKET_NAME is set, or any backend
# MEDIA_STORAGE_BACKEND names. The bucket's keys come from boto3's usual places (AWS_ACCESS_KEY_ID and
# AWS_SECRET_ACCESS_KEY, or the machine's role). See docs/operations/deployment.md.
AWS_STORAGE_BUCKET_NAME = os.environ.get("AWS_STORAGE_BUCKET_NAME", "")
if AWS_STORAGE_BUCKET_NAME:
    STORAGES["default"]["BACKEND"] = "storages.backends.s3.S3Storage"
    AWS_S3_ENDPOINT_URL = os.environ.get("AWS_S3_ENDPOINT_URL") or None  # unset: Amazon S3 itself
    AWS_S3_REGION_NAME = os.environ.get("AWS_S3_REGION_NAME") or None
    AWS_LOCATION = os.environ.get("AWS_LOCATION", "media")
    # A CDN (or the bucket's own public host) in front of the covers: their URLs use this domain.
    AWS_S3_CUSTOM_DOMAIN = os.environ.get("AWS_S3_CUSTOM_DOMAIN") or None
    # A cover's URL is stored with its campaign, so it must not expire: plain URLs, read publicly
    # (a bucket policy allowing s3:GetObject, or AWS_DEFAULT_ACL=public-read where ACLs are on).
    AWS_QUERYSTRING_AUTH = env_bool("AWS_QUERYSTRING_AUTH", False)
    AWS_DEFAULT_ACL = os.environ.get("AWS_DEFAULT_ACL") or None
    # Upload names are random: never ask the bucket for a free name first.
    AWS_S3_FILE_OVERWRITE = True
STORAGES["default"]["BACKEND"] = os.environ.get("MEDIA_STORAGE_BACKEND", STORAGES["default"]["BACKEND"])
# Django serves MEDIA_ROOT itself locally and in the end-to-end tests; a deployment serves it from
# its web server or bucket instead (or sets SERVE_MEDIA=true to let Django do it).
SERVE_MEDIA = env_bool("SERVE_MEDIA", not IS_PRODUCTION)
# Uploads (campaign covers, at most 25 MB) are dropped as soon as they pass the limit, before they
# reach the disk; the view answers 'File size must not exceed 25MB'.
FILE_UPLOAD_HANDLERS = [
    "campaigns.uploads.MediaUploadSizeLimitHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
# Every other body (JSON, forms; not uploaded files) is at most 1 MB, the largest real one being a
# 20 KB wizard draft; a larger one is answered 413 (config/api.py).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if IS_PRODUCTION
    else "django.core.mail.backends.filebased.EmailBackend",
)
EMAIL_FILE_PATH = Path(os.environ.get("EMAIL_FILE_PATH", BASE_DIR / "sent-emails"))
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Harambee <no-reply@harambee.local>")


# Secrets third parties gave us (an organization's Daraja consumer secret and passkey) are stored
# encrypted with these Fernet keys (common/encryption.py), comma-separated: the first encrypts, all
# decrypt. To change keys put the new one first, run `manage.py rotate_secrets_key`, then drop the
# old one (docs/operations/secrets.md). Required in production (common/checks.py); locally a published key.
SECRETS_ENCRYPTION_KEYS = env_list("SECRETS_ENCRYPTION_KEYS") or (
    [] if IS_PRODUCTION else [LOCAL_DEFAULTS["SECRETS_ENCRYPTION_KEYS"]]
)


# Payments (backend/payments). Locally every provider is the built-in simulator
# (backend/simulators, under /simulators/), so nothing needs credentials; a deployment
# sets the real hosts and keys. See docs/operations/mpesa-and-cards.md.
PAYMENT_SIMULATORS_ENABLED = not IS_PRODUCTION and env_bool("PAYMENT_SIMULATORS_ENABLED", True)
if PAYMENT_SIMULATORS_ENABLED:
    INSTALLED_APPS.append("simulators")


def local_default(name: str) -> str:
    return "" if IS_PRODUCTION else LOCAL_DEFAULTS[name]


def env_required_in_production(name: str) -> str:
    value = os.environ.get(name, "")
    if not value:
        if IS_PRODUCTION:
            raise ImproperlyConfigured(f"{name} must be set when HARAMBEE_ENV=production.")
        value = LOCAL_DEFAULTS[name]
    return value


# Safaricom Daraja (M-Pesa): sandbox https://sandbox.safaricom.co.ke, live https://api.safaricom.co.ke.
MPESA_BASE_URL = os.environ.get(
    "MPESA_BASE_URL", "https://api.safaricom.co.ke" if IS_PRODUCTION else f"{SITE_URL}/simulators/daraja"
).rstrip("/")
# Required in production (an empty one fails `check --deploy`); locally the simulator's, which takes any.
MPESA_CONSUMER_KEY = os.environ.get("MPESA_CONSUMER_KEY", local_default("MPESA_CONSUMER_KEY"))
MPESA_CONSUMER_SECRET = os.environ.get("MPESA_CONSUMER_SECRET", local_default("MPESA_CONSUMER_SECRET"))
# Safaricom's sandbox shortcode and its published passkey (not secrets) locally.
MPESA_SHORTCODE = os.environ.get("MPESA_SHORTCODE", local_default("MPESA_SHORTCODE"))
MPESA_PASSKEY = os.environ.get("MPESA_PASSKEY", local_default("MPESA_PASSKEY"))
# CustomerPayBillOnline for a paybill, CustomerBuyGoodsOnline for a till.
MPESA_TRANSACTION_TYPE = os.environ.get("MPESA_TRANSACTION_TYPE", "CustomerPayBillOnline")
# Where Safaricom reaches us: the public https address of this site.
MPESA_CALLBACK_BASE_URL = os.environ.get("MPESA_CALLBACK_BASE_URL", SITE_URL).rstrip("/")
# Daraja does not sign callbacks: this unguessable path segment is their credential.
MPESA_CALLBACK_TOKEN = env_required_in_production("MPESA_CALLBACK_TOKEN")
# The addresses callbacks may come from (Safaricom publishes its ranges). Empty (a warning in production):
# any address, and an STK success is confirmed by our own query before it is credited.
MPESA_ALLOWED_IPS = env_list("MPESA_ALLOWED_IPS")

# Airtel Africa Open API (Airtel Money collections): UAT https://openapiuat.airtel.africa, live
# https://openapi.airtel.africa. Each organization's app credentials are stored encrypted on its
# Airtel Money account (payments.AirtelConnection); its callback URL is SITE_URL-based.
AIRTEL_BASE_URL = os.environ.get(
    "AIRTEL_BASE_URL", "https://openapi.airtel.africa" if IS_PRODUCTION else f"{SITE_URL}/simulators/airtel"
).rstrip("/")

# Paystack hosted checkout (cards and M-Pesa, in KES). Its webhooks are signed with the secret key.
PAYSTACK_BASE_URL = os.environ.get(
    "PAYSTACK_BASE_URL", "https://api.paystack.co" if IS_PRODUCTION else f"{SITE_URL}/simulators/paystack"
).rstrip("/")
PAYSTACK_SECRET_KEY = env_required_in_production("PAYSTACK_SECRET_KEY")

# Fees in whole KES, and how long a paid subscription lasts.
CAMPAIGN_ACTIVATION_FEE_KES = int(os.environ.get("CAMPAIGN_ACTIVATION_FEE_KES", "1000"))
SUBSCRIPTION_FEE_KES = int(os.environ.get("SUBSCRIPTION_FEE_KES", "2500"))
SUBSCRIPTION_PERIOD_DAYS = int(os.environ.get("SUBSCRIPTION_PERIOD_DAYS", "365"))

# The simulators answer after this many seconds, like a person entering a PIN (tests use less).
SIMULATOR_CALLBACK_DELAY_SECONDS = float(os.environ.get("SIMULATOR_CALLBACK_DELAY_SECONDS", "2"))
# Where the Paystack simulator sends webhooks (on Paystack this is set in its dashboard).
SIMULATOR_PAYSTACK_WEBHOOK_URL = os.environ.get(
    "SIMULATOR_PAYSTACK_WEBHOOK_URL", f"{SITE_URL}/api/payments/callbacks/card"
)

# SMS through Africa's Talking (backend/notifications/sms.py): live https://api.africastalking.com,
# sandbox https://api.sandbox.africastalking.com (username "sandbox"); locally its simulator,
# whose outbox is /simulators/sms/outbox. SMS_SENDER_ID is a registered alphanumeric sender id
# (empty: the gateway's shared one).
AFRICASTALKING_BASE_URL = os.environ.get(
    "AFRICASTALKING_BASE_URL", "https://api.africastalking.com" if IS_PRODUCTION else f"{SITE_URL}/simulators/sms"
).rstrip("/")
AFRICASTALKING_USERNAME = os.environ.get("AFRICASTALKING_USERNAME", "sandbox")
AFRICASTALKING_API_KEY = env_required_in_production("AFRICASTALKING_API_KEY")
SMS_SENDER_ID = os.environ.get("SMS_SENDER_ID", "")
# Replies to texts on a premium or on-demand shortcode go through AT's content API, with the keyword
# the shortcode's texts come in on (SMS_PREMIUM_KEYWORD). The gateway POSTs each SMS's delivery report
# to /api/sms/delivery-reports/<AFRICASTALKING_CALLBACK_TOKEN> (register it in AT's dashboard).
AFRICASTALKING_CONTENT_BASE_URL = os.environ.get(
    "AFRICASTALKING_CONTENT_BASE_URL",
    "https://content.africastalking.com" if IS_PRODUCTION else f"{SITE_URL}/simulators/sms",
).rstrip("/")
SMS_PREMIUM_KEYWORD = os.environ.get("SMS_PREMIUM_KEYWORD", "")

# USSD through Africa's Talking (backend/ussd): the code people dial, and the callback the gateway
# POSTs every step to, /api/ussd/callback/<AFRICASTALKING_CALLBACK_TOKEN> (the gateway signs nothing:
# the unguessable token is its credential). AFRICASTALKING_USSD_ALLOWED_IPS, if set, are the only
# addresses it is taken from. Locally the emulator at /simulators/ussd calls it.
USSD_SERVICE_CODE = os.environ.get("USSD_SERVICE_CODE", "*384*4242#")
AFRICASTALKING_CALLBACK_TOKEN = env_required_in_production("AFRICASTALKING_CALLBACK_TOKEN")
AFRICASTALKING_USSD_ALLOWED_IPS = env_list("AFRICASTALKING_USSD_ALLOWED_IPS")
# A PIN prompt cannot show while the USSD dialogue is open: it is sent this long after the last screen.
USSD_STK_DELAY_SECONDS = float(os.environ.get("USSD_STK_DELAY_SECONDS", "4"))
# Two-way SMS (backend/sms_keywords): the shortcode people text keywords to (PLEDGE 14 5000), whose
# incoming messages Africa's Talking POSTs to /api/sms/inbound/<AFRICASTALKING_CALLBACK_TOKEN> (the
# same token, and the same address list). Empty: none rented, and the pages do not offer texting.
SMS_SHORTCODE = os.environ.get("SMS_SHORTCODE", "" if IS_PRODUCTION else "22384")
# A keyword rented on a shared shortcode, with which every text to it starts (e.g. HARAMBEE): set aside.
SMS_SHARED_KEYWORD = os.environ.get("SMS_SHARED_KEYWORD", "")


def env_rate(name: str, default: str) -> tuple[int, int]:
    """A rate limit written 'attempts/seconds', e.g. '5/900'."""
    attempts, seconds = os.environ.get(name, default).split("/")
    return int(attempts), int(seconds)


# After the spec's strength rule (accounts/validators.py, whose message comes first): no common
# password, none like the user's own details, and 12 characters for admins.
AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator",
        "OPTIONS": {"user_attributes": ("email", "first_name", "last_name", "phone")},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "accounts.validators.StaffPasswordLengthValidator"},
]

# The load balancers in front of the app (addresses or networks, e.g. 127.0.0.1,10.0.0.0/8). A request
# from one of them is counted against the client address it names in X-Forwarded-For, not its own.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")

# Rate limits: (attempts, window in seconds).
# Failed sign-ins per account and address (or known device), and per account from everywhere
# (accounts/sign_in_limits.py: never per address alone, which would lock out a congregation).
RATE_LIMIT_SIGN_IN = env_rate("RATE_LIMIT_SIGN_IN", "5/900")
RATE_LIMIT_SIGN_IN_ACCOUNT = env_rate("RATE_LIMIT_SIGN_IN_ACCOUNT", "20/900")
# Sign-ups, pledges and donations from browsers: generous per address (a church signs up 30 members in a
# meeting; 200 people pledge at a harambee on one Wi-Fi), and past that a proof-of-work challenge lets
# people through (common/challenges.py); strict per phone number, e-mail address and account.
RATE_LIMIT_SIGN_UP = env_rate("RATE_LIMIT_SIGN_UP", "30/3600")
RATE_LIMIT_SIGN_UP_PHONE = env_rate("RATE_LIMIT_SIGN_UP_PHONE", "3/86400")
RATE_LIMIT_PASSWORD_RESET = env_rate("RATE_LIMIT_PASSWORD_RESET", "5/3600")
# One-time codes proving a phone number, per number and per account (each is an SMS we pay for).
RATE_LIMIT_PHONE_VERIFICATION = env_rate("RATE_LIMIT_PHONE_VERIFICATION", "5/3600")
# …and per number a day: 5 an hour would still let about 120 codes a day reach one number.
RATE_LIMIT_PHONE_VERIFICATION_DAY = env_rate("RATE_LIMIT_PHONE_VERIFICATION_DAY", "10/86400")
# Pledges and donations come from phones at a church service, often behind one shared address
# (carrier NAT, the church Wi-Fi): generous per address, strict per pledge code for STK prompts.
RATE_LIMIT_PLEDGE = env_rate("RATE_LIMIT_PLEDGE", "200/600")
RATE_LIMIT_DONATION = env_rate("RATE_LIMIT_DONATION", "200/600")
# Pledges and donations naming one phone number or e-mail address, and made by one signed-in account.
RATE_LIMIT_GIVING_CONTACT = env_rate("RATE_LIMIT_GIVING_CONTACT", "10/3600")
RATE_LIMIT_GIVING_ACCOUNT = env_rate("RATE_LIMIT_GIVING_ACCOUNT", "30/3600")
# The proof-of-work challenge: zero bits a solution's SHA-256 starts with (12: 4,096 hashes on average;
# bench/results/challenge.json), and how long a challenge may be solved and used.
CHALLENGE_DIFFICULTY_BITS = int(os.environ.get("CHALLENGE_DIFFICULTY_BITS", "12"))
CHALLENGE_TTL_SECONDS = int(os.environ.get("CHALLENGE_TTL_SECONDS", "300"))
RATE_LIMIT_PLEDGE_LOOKUP = env_rate("RATE_LIMIT_PLEDGE_LOOKUP", "120/600")
# Campaign page-view beacons per address: enough for a church behind one address, too few to inflate figures.
RATE_LIMIT_CAMPAIGN_VIEW = env_rate("RATE_LIMIT_CAMPAIGN_VIEW", "120/600")
RATE_LIMIT_PLEDGE_STK_PUSH = env_rate("RATE_LIMIT_PLEDGE_STK_PUSH", "5/600")
# Every M-Pesa PIN prompt (donation, pledge, fee) per phone number, so nobody can flood a stranger's
# phone with prompts, and per address.
RATE_LIMIT_STK_PUSH_PHONE = env_rate("RATE_LIMIT_STK_PUSH_PHONE", "5/600")
RATE_LIMIT_STK_PUSH_IP = env_rate("RATE_LIMIT_STK_PUSH_IP", "60/600")
# Per phone number on the USSD menu: pledges (10 a day) and M-Pesa PIN prompts (5 in 10 minutes).
RATE_LIMIT_USSD_PLEDGES = env_rate("RATE_LIMIT_USSD_PLEDGES", "10/86400")
RATE_LIMIT_USSD_STK = env_rate("RATE_LIMIT_USSD_STK", "5/600")
# Texts to the shortcode answered per number (sms_keywords); past it they are recorded, unanswered.
RATE_LIMIT_SMS_KEYWORDS = env_rate("RATE_LIMIT_SMS_KEYWORDS", "20/3600")
RATE_LIMIT_FEEDBACK = env_rate("RATE_LIMIT_FEEDBACK", "10/3600")
# Provider callbacks with a wrong token or signature, per address (the genuine ones are never counted).
RATE_LIMIT_CALLBACK_REJECTED = env_rate("RATE_LIMIT_CALLBACK_REJECTED", "20/600")
# Messages to one phone number or e-mail address that its owner did not ask for (a pledge's confirmation
# and reminders, when nothing was paid from that number): notifications/recipient_limits.py.
RATE_LIMIT_UNASKED_MESSAGES_HOUR = env_rate("RATE_LIMIT_UNASKED_MESSAGES_HOUR", "3/3600")
RATE_LIMIT_UNASKED_MESSAGES_DAY = env_rate("RATE_LIMIT_UNASKED_MESSAGES_DAY", "10/86400")
# Messages one team member's actions cause in one organization (invitations, requests for approval
# and their outcomes): generous, not counted against the recipient (organizations/team_messages.py).
RATE_LIMIT_TEAM_MESSAGES_HOUR = env_rate("RATE_LIMIT_TEAM_MESSAGES_HOUR", "30/3600")
RATE_LIMIT_TEAM_MESSAGES_DAY = env_rate("RATE_LIMIT_TEAM_MESSAGES_DAY", "100/86400")
# Entries at an event's desk per usher (an account or a passcode, never an address: one hall's Wi-Fi
# carries every desk), and desk passcodes tried per address.
RATE_LIMIT_DESK_ENTRY = env_rate("RATE_LIMIT_DESK_ENTRY", "200/600")
RATE_LIMIT_DESK_PASSCODE = env_rate("RATE_LIMIT_DESK_PASSCODE", "10/600")
# Cover uploads per user: each may cost a worker seconds of image decoding (campaigns/uploads.py).
RATE_LIMIT_MEDIA_UPLOAD = env_rate("RATE_LIMIT_MEDIA_UPLOAD", "20/3600")
# Statement files read (uploads, and bank columns offered from a file) per user and per organization:
# each may cost a worker seconds (statements/reading.py), and any signed-up user can start a church.
RATE_LIMIT_STATEMENT_FILE_USER = env_rate("RATE_LIMIT_STATEMENT_FILE_USER", "20/3600")
RATE_LIMIT_STATEMENT_FILE_ORGANIZATION = env_rate("RATE_LIMIT_STATEMENT_FILE_ORGANIZATION", "40/3600")
# The organizer's manual 'Remind' in Pledge Management, per pledge.
RATE_LIMIT_PLEDGE_REMIND = env_rate("RATE_LIMIT_PLEDGE_REMIND", "1/3600")
# Corrections, cancellations and restorations of one pledge (each texts the pledger), per pledge.
RATE_LIMIT_PLEDGE_CHANGES = env_rate("RATE_LIMIT_PLEDGE_CHANGES", "10/86400")

# No reminders between these Nairobi hours ("21-7": from 21:00 until 07:00); due ones wait for the
# morning. Empty turns quiet hours off (the end-to-end tests, which run at any hour on the real clock).
_quiet_hours = os.environ.get("REMINDER_QUIET_HOURS", "21-7").strip()
REMINDER_QUIET_HOURS: tuple[int, int] | None = None
if _quiet_hours:
    try:
        _quiet_from, _quiet_until = (int(hour) for hour in _quiet_hours.split("-"))
    except ValueError:
        raise ImproperlyConfigured("REMINDER_QUIET_HOURS must be two hours, e.g. 21-7, or empty.") from None
    if not (0 <= _quiet_until < _quiet_from <= 23):
        raise ImproperlyConfigured("REMINDER_QUIET_HOURS must run over midnight, e.g. 21-7.")
    REMINDER_QUIET_HOURS = (_quiet_from, _quiet_until)

# The campaign behind the static ministry page /icc-imara-donate: by id, or else the newest active
# campaign with this title (the demo data creates it).
MINISTRY_CAMPAIGN_ID = int(os.environ.get("MINISTRY_CAMPAIGN_ID", "0")) or None
MINISTRY_CAMPAIGN_TITLE = os.environ.get("MINISTRY_CAMPAIGN_TITLE", "ICC Imara: Building Our Church Home")

# Shown on the dashboard as the external organization-content tool.
ORGANIZATION_CONTENT_TOOL_URL = os.environ.get("ORGANIZATION_CONTENT_TOOL_URL", "https://example.org/content-tool")

# The data controller named on the privacy notice (/privacy), and where people send requests
# about their personal data (Kenya's Data Protection Act, 2019).
DATA_CONTROLLER_NAME = os.environ.get("DATA_CONTROLLER_NAME", "Harambee")
PRIVACY_CONTACT_EMAIL = os.environ.get("PRIVACY_CONTACT_EMAIL", "privacy@harambee.local")
# Whom organizers write to with questions, e.g. why an admin suspended their campaign (the dashboard says).
SUPPORT_EMAIL = os.environ.get("SUPPORT_EMAIL", "support@harambee.local")

# Logs go to standard output, one JSON object per line in production (LOG_FORMAT=json) or
# readable text locally (LOG_FORMAT=text). Every record carries the request id, and e-mail
# addresses and phone numbers in it are masked (common/logs.py).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "json" if IS_PRODUCTION else "text")
if LOG_FORMAT not in {"json", "text"}:
    raise ImproperlyConfigured("LOG_FORMAT must be 'json' or 'text'.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "common.logs.RequestIdFilter"},
        "personal_data": {"()": "common.logs.PersonalDataFilter"},
    },
    "formatters": {
        "json": {"()": "common.logs.JsonFormatter"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id", "personal_data"],
            "formatter": LOG_FORMAT,
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own console handler (under DEBUG) would print its records a second time, unmasked:
        # they go to the root's handler above instead.
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        # Django's own request logger repeats what the access line says about 4xx answers.
        "django.request": {"level": "ERROR"},
    },
}
