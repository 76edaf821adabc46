import pytest
from cryptography.fernet import Fernet
from django.core.exceptions import ImproperlyConfigured

from common.encryption import SecretUnreadable, decrypt, encrypt

OLD, NEW = Fernet.generate_key().decode(), Fernet.generate_key().decode()


def test_a_secret_is_stored_as_ciphertext_that_decrypts_to_it(settings):
    settings.SECRETS_ENCRYPTION_KEYS = [NEW]

    ciphertext = encrypt("church-consumer-secret")

    assert "church-consumer-secret" not in ciphertext
    assert decrypt(ciphertext) == "church-consumer-secret"


def test_the_same_secret_encrypts_differently_each_time(settings):
    settings.SECRETS_ENCRYPTION_KEYS = [NEW]

    assert encrypt("passkey") != encrypt("passkey")


def test_after_a_new_key_is_put_first_old_secrets_still_open_and_new_ones_use_it(settings):
    settings.SECRETS_ENCRYPTION_KEYS = [OLD]
    before = encrypt("passkey")
    settings.SECRETS_ENCRYPTION_KEYS = [NEW, OLD]

    after = encrypt("passkey")

    assert decrypt(before) == "passkey"
    settings.SECRETS_ENCRYPTION_KEYS = [NEW]
    assert decrypt(after) == "passkey"


def test_a_secret_no_key_opens_says_so_without_showing_it(settings):
    settings.SECRETS_ENCRYPTION_KEYS = [OLD]
    ciphertext = encrypt("passkey")
    settings.SECRETS_ENCRYPTION_KEYS = [NEW]

    with pytest.raises(SecretUnreadable, match="rotate_secrets_key") as raised:
        decrypt(ciphertext)

    assert ciphertext not in str(raised.value)


@pytest.mark.parametrize("keys", [[], ["not-a-key"]])
def test_missing_or_malformed_keys_refuse_to_encrypt(settings, keys):
    settings.SECRETS_ENCRYPTION_KEYS = keys

    with pytest.raises(ImproperlyConfigured):
        encrypt("passkey")
