import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.exceptions import ImproperlyConfigured

from common.checks import refuse_unsafe_settings, trusted_proxies_check, unsafe_settings_check

BACKEND_DIR = Path(django_settings.BASE_DIR)
STRONG = "q7Xv2mR9tLk4wZp8Hs3Nd6Yb1Gc5Jf0E"  # 32 characters
FERNET_KEY = "Jx3mJ8c2p0ZkQeC4s9qN1wYtV6bR7uHfA5dG0lK2oPs="


@pytest.fixture
def deployment(settings):
    """Settings a real deployment might have: every check passes."""
    settings.IS_PRODUCTION = True
    settings.SECRET_KEY = f"{STRONG}-secret-key"
    settings.MPESA_CALLBACK_TOKEN = f"{STRONG}-token"
    settings.PAYSTACK_SECRET_KEY = f"sk_live_{STRONG}"
    settings.AFRICASTALKING_API_KEY = f"atsk_{STRONG}"
    settings.AFRICASTALKING_CALLBACK_TOKEN = f"{STRONG}-ussd"
    settings.MPESA_CONSUMER_KEY = f"{STRONG}-consumer-key"
    settings.MPESA_CONSUMER_SECRET = f"{STRONG}-consumer-secret"
    settings.MPESA_SHORTCODE = "600123"
    settings.MPESA_PASSKEY = f"{STRONG}-passkey"
    settings.MPESA_CALLBACK_BASE_URL = "https://harambee.example"
    settings.MPESA_ALLOWED_IPS = ["196.201.214.200"]
    settings.SECRETS_ENCRYPTION_KEYS = [FERNET_KEY]
    return settings


def check_ids() -> list[str | None]:
    return [message.id for message in unsafe_settings_check()]


def test_a_deployment_without_trusted_proxies_is_warned(settings):
    settings.TRUSTED_PROXIES = []

    [warning] = trusted_proxies_check()

    assert warning.id == "harambee.W001"


def test_trusted_proxies_silence_the_warning(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]

    assert trusted_proxies_check() == []


def test_strong_settings_pass(deployment):
    assert check_ids() == []
    refuse_unsafe_settings()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("SECRET_KEY", "change-me"),
        ("MPESA_CALLBACK_TOKEN", f"{STRONG}-CHANGE-ME"),
        ("MPESA_CALLBACK_TOKEN", "local-callback-token"),
        ("PAYSTACK_SECRET_KEY", "sk_test_local_simulator"),
        ("AFRICASTALKING_API_KEY", "local-sms-api-key"),
        ("AFRICASTALKING_CALLBACK_TOKEN", "local-ussd-callback-token"),
        ("MPESA_SHORTCODE", "174379"),
        ("MPESA_PASSKEY", "bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919"),
        ("MPESA_CONSUMER_KEY", "local-consumer-key"),
    ],
)
def test_placeholders_and_local_defaults_are_errors(deployment, name, value):
    setattr(deployment, name, value)

    assert check_ids() == ["harambee.E002"]


@pytest.mark.parametrize(
    "name",
    [
        "SECRET_KEY",
        "MPESA_CALLBACK_TOKEN",
        "PAYSTACK_SECRET_KEY",
        "AFRICASTALKING_API_KEY",
        "AFRICASTALKING_CALLBACK_TOKEN",
    ],
)
def test_secrets_shorter_than_32_characters_are_errors(deployment, name):
    setattr(deployment, name, STRONG[:31])

    assert check_ids() == ["harambee.E003"]


@pytest.mark.parametrize("name", ["MPESA_CONSUMER_KEY", "MPESA_CONSUMER_SECRET", "MPESA_SHORTCODE", "MPESA_PASSKEY"])
def test_the_mpesa_settings_are_required(deployment, name):
    setattr(deployment, name, "")

    assert check_ids() == ["harambee.E001"]


@pytest.mark.parametrize(
    ("name", "value", "error"),
    [
        ("SECRET_KEY", "your-secret-key-goes-here-replace-me-please", "harambee.E002"),
        ("SECRET_KEY", "django-insecure-" + STRONG, "harambee.E002"),
        ("MPESA_CALLBACK_TOKEN", "x" * 40, "harambee.E006"),
        ("AFRICASTALKING_API_KEY", "ab" * 20, "harambee.E006"),
        ("PAYSTACK_SECRET_KEY", f"sk_test_{STRONG}", "harambee.E008"),
        ("MPESA_CONSUMER_KEY", "x", "harambee.E003"),
        ("MPESA_PASSKEY", "0" * 64, "harambee.E006"),
        ("MPESA_SHORTCODE", "1", "harambee.E007"),
        ("MPESA_SHORTCODE", "60O123", "harambee.E007"),
    ],
)
def test_weak_patterned_and_test_mode_values_are_errors(deployment, name, value, error):
    setattr(deployment, name, value)

    assert check_ids() == [error]


def test_a_test_mode_paystack_key_is_fine_outside_production(deployment):
    deployment.IS_PRODUCTION = False
    deployment.PAYSTACK_SECRET_KEY = f"sk_test_{STRONG}"

    assert check_ids() == []


@pytest.mark.parametrize("key", ["A" * 43 + "=", "_" * 43 + "="])
def test_a_predictable_encryption_key_is_an_error(deployment, key):
    deployment.SECRETS_ENCRYPTION_KEYS = [FERNET_KEY, key]

    assert check_ids() == ["harambee.E005"]


def test_the_local_encryption_key_is_an_error(deployment):
    deployment.SECRETS_ENCRYPTION_KEYS = [FERNET_KEY, deployment.LOCAL_DEFAULTS["SECRETS_ENCRYPTION_KEYS"]]

    assert check_ids() == ["harambee.E002"]


@pytest.mark.parametrize("keys", [[], ["not-a-fernet-key"], [FERNET_KEY, "short"]])
def test_missing_or_malformed_encryption_keys_are_errors(deployment, keys):
    deployment.SECRETS_ENCRYPTION_KEYS = keys

    assert check_ids() == ["harambee.E005"]


def test_a_production_start_without_encryption_keys_is_refused():
    environment = production_environment(STRONG)
    del environment["SECRETS_ENCRYPTION_KEYS"]

    started = run_backend("-c", "import config.wsgi", **environment)

    assert started.returncode != 0
    assert "SECRETS_ENCRYPTION_KEYS is not set" in started.stderr


def test_a_callback_token_naming_mpesa_is_an_error_daraja_would_refuse_it(deployment):
    deployment.MPESA_CALLBACK_TOKEN = f"{STRONG}-MPesa"

    assert check_ids() == ["harambee.E004"]


def test_an_empty_mpesa_allow_list_is_warned(deployment):
    deployment.MPESA_ALLOWED_IPS = []

    assert check_ids() == ["harambee.W002"]
    refuse_unsafe_settings()  # a warning does not stop the server


def test_a_production_start_with_unsafe_settings_is_refused_with_the_reasons(deployment):
    deployment.SECRET_KEY = "change-me"

    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is a placeholder"):
        refuse_unsafe_settings()


def test_local_use_starts_on_local_defaults(settings):
    settings.IS_PRODUCTION = False

    refuse_unsafe_settings()


# A new interpreter: the settings are read, and the server started, once per process.


def run_backend(*command: str, **environment: str) -> subprocess.CompletedProcess[str]:
    env = {name: value for name, value in os.environ.items() if name not in {"DJANGO_SETTINGS_MODULE", "HARAMBEE_ENV"}}
    return subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, *command], cwd=BACKEND_DIR, env={**env, **environment}, capture_output=True, text=True
    )


def production_environment(secret: str) -> dict[str, str]:
    return {
        "HARAMBEE_ENV": "production",
        "ALLOWED_HOSTS": "harambee.example",
        "SECRET_KEY": f"{secret}-secret-key",
        "MPESA_CALLBACK_TOKEN": f"{secret}-token",
        "PAYSTACK_SECRET_KEY": f"{secret}-paystack",
        "AFRICASTALKING_API_KEY": f"{secret}-sms",
        "AFRICASTALKING_CALLBACK_TOKEN": f"{secret}-ussd",
        "MPESA_CONSUMER_KEY": f"{secret}-consumer-key",
        "MPESA_CONSUMER_SECRET": f"{secret}-consumer-secret",
        "MPESA_SHORTCODE": "600123",
        "MPESA_PASSKEY": f"{secret}-passkey",
        "SECRETS_ENCRYPTION_KEYS": FERNET_KEY,
    }


def test_check_deploy_fails_on_the_examples_change_me_secrets_and_passes_on_strong_ones():
    weak = run_backend("manage.py", "check", "--deploy", **production_environment("change-me"))
    strong = run_backend("manage.py", "check", "--deploy", **production_environment(STRONG))

    assert weak.returncode != 0
    assert "SECRET_KEY is a placeholder" in weak.stderr
    assert strong.returncode == 0, strong.stderr


def test_a_production_web_server_refuses_to_start_on_change_me_secrets():
    started = run_backend("-c", "import config.wsgi", **production_environment("change-me"))

    assert started.returncode != 0
    assert "Refusing to start with unsafe settings" in started.stderr


def test_without_harambee_env_a_public_allowed_host_refuses_to_start():
    started = run_backend("-c", "import config.wsgi", ALLOWED_HOSTS="harambee.example,127.0.0.1")

    assert started.returncode != 0
    assert "ALLOWED_HOSTS names harambee.example but HARAMBEE_ENV is not set" in started.stderr


def test_without_harambee_env_loopback_hosts_start_locally():
    started = run_backend(
        "-c",
        "import config.wsgi; from django.conf import settings; print(settings.HARAMBEE_ENV)",
        ALLOWED_HOSTS="127.0.0.1,localhost,[::1]",
    )

    assert started.returncode == 0, started.stderr
    assert started.stdout.strip() == "local"
