import pytest

from payments import services

pytestmark = pytest.mark.django_db


def test_an_unexpected_error_is_answered_500_in_the_usual_shape_and_logged(api_client, monkeypatch, caplog):
    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "payment_status_check", broken)

    answer = api_client.get("/api/payments/ABCDEFGHJKLM")

    assert answer.status_code == 500
    assert answer.json() == {
        "detail": "Something went wrong on our side. Please try again.",
        "code": "server_error",
        "field_errors": {},
    }
    assert "a bug" in caplog.text
