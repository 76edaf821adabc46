import pytest

from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

DOCS = ["/api/docs", "/api/openapi.json"]


@pytest.mark.parametrize("path", DOCS)
def test_the_api_docs_are_open_locally(client, path):
    assert client.get(path).status_code == 200


@pytest.mark.parametrize("path", DOCS)
def test_in_production_visitors_and_members_are_sent_to_the_staff_sign_in(client, settings, path):
    settings.IS_PRODUCTION = True

    anonymous = client.get(path)
    client.force_login(UserFactory())
    member = client.get(path)

    for response in (anonymous, member):
        assert response.status_code == 302
        assert response["Location"].startswith("/admin/login/")


@pytest.mark.parametrize("path", DOCS)
def test_in_production_staff_read_the_api_docs(client, settings, path):
    settings.IS_PRODUCTION = True
    client.force_login(UserFactory(is_staff=True))

    assert client.get(path).status_code == 200
