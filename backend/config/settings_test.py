"""The test override: fast hashing, in-memory e-mail, everything else as configured."""

from .settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Messages go nowhere unless a test points this at the SMS simulator (notifications/tests/conftest.py):
# port 9 (discard) refuses at once, so no test ever reaches a server someone runs on port 8000.
AFRICASTALKING_BASE_URL = AFRICASTALKING_CONTENT_BASE_URL = "http://127.0.0.1:9/simulators/sms"
# The test client and the simulators call back from 127.0.0.1: vouched for, as Safaricom's own addresses
# are in a deployment. Tests of callbacks nobody vouches for (confirmed by an STK query) empty it.
MPESA_ALLOWED_IPS = ["127.0.0.1"]
# PostgreSQL (CI): a commit does not wait for its WAL record to reach the disk. Nothing the tests check
# depends on surviving a crash of the database server, and the transactional tests commit and truncate
# often. The test databases are dropped at the end anyway.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"  # noqa: F405
