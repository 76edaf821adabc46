"""The websites allowed to frame an organization's campaigns (organizations/embed_origins.py and the
services and API around them): origins checked strictly, owners add and remove them, audited."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.tests.factories import UserFactory
from audit.models import AuditAction, AuditEntry
from common.errors import FieldValidationError
from organizations.embed_origins import embed_origin_checked
from organizations.models import EmbedOrigin, Membership, Organization
from organizations.roles import Role
from organizations.services import MAX_EMBED_ORIGINS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "origin"),
    [
        ("https://www.stpauls.example", "https://www.stpauls.example"),
        ("  HTTPS://WWW.StPauls.Example/ ", "https://www.stpauls.example"),
        ("https://stpauls.example:443", "https://stpauls.example"),
        ("https://stpauls.example:8443", "https://stpauls.example:8443"),
        ("http://localhost:3000", "http://localhost:3000"),
        ("http://127.0.0.1:8242", "http://127.0.0.1:8242"),
        ("http://127.0.0.1:80", "http://127.0.0.1"),
    ],
)
def test_an_origin_is_written_as_a_browser_writes_it(typed, origin):
    assert embed_origin_checked(typed) == origin


@pytest.mark.parametrize(
    "typed",
    [
        "",
        "stpauls.example",
        "http://stpauls.example",  # not secure, not this machine
        "https://stpauls.example/give",
        "https://stpauls.example?x=1",
        "https://stpauls.example#top",
        "https://user:pw@stpauls.example",
        "https://*.stpauls.example",
        "*",
        "https://stpauls.example:0",
        "https://stpauls.example:99999",
        "https://stpauls.example:80a",
        "https://10.0.0.5",
        "https://-bad.example",
        "https://stpauls",
        "javascript://stpauls.example",
        "https://stpauls.example 'unsafe-inline'",
        "https://stpauls.example;script-src",
        "https://stpäuls.example",
        "ftp://stpauls.example",
        "'self'",
        "https://" + "a" * 300 + ".example",
    ],
)
def test_anything_but_one_exact_origin_is_refused(typed):
    with pytest.raises(FieldValidationError) as refused:
        embed_origin_checked(typed)
    assert "origin" in refused.value.field_errors


@given(st.text(max_size=60) | st.builds(lambda rest: f"https://{rest}", st.text(max_size=40)))
def test_any_text_is_either_an_origin_or_refused_with_a_message(typed):
    try:
        origin = embed_origin_checked(typed)
    except FieldValidationError:
        return
    assert embed_origin_checked(origin) == origin  # written as stored, it is the same origin
    assert all(c not in origin for c in " ;,'\"*")


@pytest.mark.parametrize("typed", ["https://[", "https://[::1]", "https://a.example:x", "https://a.example:-1"])
def test_malformed_addresses_are_refused_not_an_error(typed):
    with pytest.raises(FieldValidationError):
        embed_origin_checked(typed)


@pytest.fixture
def church():
    return Organization.objects.create(name="St. Paul's Thika", kind="church")


def member(church, role):
    return Membership.objects.create(organization=church, user=UserFactory.create(), role=role).user


def test_an_owner_adds_a_website_once_and_it_is_audited(make_api_client, church, django_assert_num_queries):
    owner = member(church, Role.OWNER)
    client = make_api_client(signed_in_as=owner)
    answer = client.post(f"/api/orgs/{church.pk}/embed-origins", {"origin": "https://WWW.stpauls.example/"})
    again = client.post(f"/api/orgs/{church.pk}/embed-origins", {"origin": "https://www.stpauls.example"})
    assert answer.status_code == again.status_code == 201
    assert answer.json()["origin"] == "https://www.stpauls.example"
    assert again.json()["id"] == answer.json()["id"]
    [entry] = AuditEntry.objects.filter(action=AuditAction.EMBED_ORIGIN_ADDED)
    assert entry.actor == owner and entry.after == {"origin": "https://www.stpauls.example"}
    with django_assert_num_queries(4):  # the session, the user, the membership, the websites
        listed = client.get(f"/api/orgs/{church.pk}/embed-origins")
    assert [o["origin"] for o in listed.json()] == ["https://www.stpauls.example"]


def test_a_refused_origin_answers_with_the_fields_message(make_api_client, church):
    client = make_api_client(signed_in_as=member(church, Role.OWNER))
    answer = client.post(f"/api/orgs/{church.pk}/embed-origins", {"origin": "http://stpauls.example"})
    assert answer.status_code == 422
    assert "origin" in answer.json()["field_errors"]
    assert not EmbedOrigin.objects.exists()


def test_an_owner_removes_a_website_and_it_is_audited(make_api_client, church):
    owner = member(church, Role.OWNER)
    origin = EmbedOrigin.objects.create(organization=church, origin="https://stpauls.example")
    answer = make_api_client(signed_in_as=owner).delete(f"/api/orgs/{church.pk}/embed-origins/{origin.pk}")
    assert answer.status_code == 204
    assert not EmbedOrigin.objects.exists()
    [entry] = AuditEntry.objects.filter(action=AuditAction.EMBED_ORIGIN_REMOVED)
    assert entry.before == {"origin": "https://stpauls.example"}


def test_another_organizations_website_is_not_found(make_api_client, church):
    other = Organization.objects.create(name="Other", kind="church")
    origin = EmbedOrigin.objects.create(organization=other, origin="https://other.example")
    answer = make_api_client(signed_in_as=member(church, Role.OWNER)).delete(
        f"/api/orgs/{church.pk}/embed-origins/{origin.pk}"
    )
    assert answer.status_code == 404
    assert EmbedOrigin.objects.exists()


def test_a_treasurer_sees_the_websites_but_may_not_change_them(make_api_client, church):
    client = make_api_client(signed_in_as=member(church, Role.TREASURER))
    assert client.get(f"/api/orgs/{church.pk}/embed-origins").status_code == 200
    answer = client.post(f"/api/orgs/{church.pk}/embed-origins", {"origin": "https://stpauls.example"})
    assert answer.status_code == 403
    assert not EmbedOrigin.objects.exists()


def test_an_organization_registers_at_most_so_many_websites(make_api_client, church):
    EmbedOrigin.objects.bulk_create(
        EmbedOrigin(organization=church, origin=f"https://site{n}.example") for n in range(MAX_EMBED_ORIGINS)
    )
    client = make_api_client(signed_in_as=member(church, Role.OWNER))
    answer = client.post(f"/api/orgs/{church.pk}/embed-origins", {"origin": "https://one-more.example"})
    assert answer.status_code == 422
