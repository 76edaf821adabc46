from common.checks import trusted_proxies_check


def test_a_deployment_without_trusted_proxies_is_warned(settings):
    settings.TRUSTED_PROXIES = []

    [warning] = trusted_proxies_check()

    assert warning.id == "harambee.W001"


def test_trusted_proxies_silence_the_warning(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]

    assert trusted_proxies_check() == []
