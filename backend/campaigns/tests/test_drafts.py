import pytest

from accounts.tests.factories import UserFactory
from campaigns.models import Draft, DraftToolType

pytestmark = pytest.mark.django_db

LIST_URL = "/api/campaign-drafts"
STEP_DATA = {"category": "church", "goal": "250000", "title": "New roof"}


def put(client, draft_id: int, body: dict):
    return client.put(f"{LIST_URL}/{draft_id}", body, content_type="application/json")


def make_draft(user, **fields) -> Draft:
    return Draft.objects.create(
        user=user, tool_type=fields.pop("tool_type", DraftToolType.PLEDGING), step_data=STEP_DATA, **fields
    )


class TestSignedOut:
    def test_every_draft_call_answers_user_not_authenticated(self, api_client, user):
        draft = make_draft(user)
        answers = [
            api_client.get(f"{LIST_URL}?tool_type=pledging"),
            api_client.post(LIST_URL, {"tool_type": "pledging", "step_data": {}, "current_step": 1}),
            put(api_client, draft.pk, {"current_step": 3}),
        ]

        for answer in answers:
            assert answer.status_code == 401
            assert answer.json() == {
                "detail": "User not authenticated",
                "code": "not_authenticated",
                "field_errors": {},
            }
        draft.refresh_from_db()
        assert draft.current_step == 0


class TestCreate:
    def test_a_draft_is_saved_for_the_signed_in_user(self, signed_in_client, user, django_assert_num_queries):
        with django_assert_num_queries(3):  # session, user, insert
            answer = signed_in_client.post(
                LIST_URL,
                {"tool_type": "pledging", "step_data": STEP_DATA, "current_step": 2, "user_id": 999},
            )

        assert answer.status_code == 201
        body = answer.json()
        draft = Draft.objects.get()
        assert (draft.user, draft.step_data, draft.current_step, draft.is_completed) == (user, STEP_DATA, 2, False)
        assert body == {
            "id": draft.pk,
            "tool_type": "pledging",
            "step_data": STEP_DATA,
            "current_step": 2,
            "is_completed": False,
            "updated_at": body["updated_at"],
        }

    def test_step_data_over_20_kb_is_refused(self, signed_in_client):
        answer = signed_in_client.post(
            LIST_URL, {"tool_type": "pledging", "step_data": {"story": "x" * 20_001}, "current_step": 3}
        )

        assert answer.status_code == 422
        assert answer.json()["field_errors"] == {"step_data": "The draft is too large to save (at most 20 KB)."}
        assert not Draft.objects.exists()

    def test_an_unknown_tool_type_is_refused(self, signed_in_client):
        answer = signed_in_client.post(LIST_URL, {"tool_type": "crowdfunding", "step_data": {}, "current_step": 1})

        assert answer.status_code == 422
        assert "tool_type" in answer.json()["field_errors"]


class TestList:
    def test_only_the_users_own_open_drafts_of_the_tool_are_listed_newest_first(
        self, signed_in_client, user, django_assert_num_queries
    ):
        older = make_draft(user, current_step=2)
        newer = make_draft(user, current_step=4)
        make_draft(user, is_completed=True)
        make_draft(user, tool_type=DraftToolType.GRANT_FUNDING)
        make_draft(UserFactory.create())
        Draft.objects.filter(pk=older.pk).update(updated_at=newer.updated_at.replace(year=2020))

        with django_assert_num_queries(3):  # session, user, drafts
            answer = signed_in_client.get(f"{LIST_URL}?tool_type=pledging")

        assert answer.status_code == 200
        assert [(draft["id"], draft["current_step"]) for draft in answer.json()] == [(newer.pk, 4), (older.pk, 2)]

    def test_the_grant_tool_lists_its_own_drafts(self, signed_in_client, user):
        make_draft(user)
        grant = make_draft(user, tool_type=DraftToolType.GRANT_FUNDING)

        answer = signed_in_client.get(f"{LIST_URL}?tool_type=grant_funding")

        assert [draft["id"] for draft in answer.json()] == [grant.pk]

    def test_the_tool_type_is_required(self, signed_in_client):
        assert signed_in_client.get(LIST_URL).status_code == 422


class TestUpdate:
    def test_the_owner_changes_the_fields_sent_and_keeps_the_others(
        self, signed_in_client, user, django_assert_num_queries
    ):
        draft = make_draft(user, current_step=2)

        with django_assert_num_queries(4):  # session, user, draft, update
            answer = put(signed_in_client, draft.pk, {"current_step": 3})

        assert answer.status_code == 200
        draft.refresh_from_db()
        assert (draft.current_step, draft.step_data, draft.is_completed) == (3, STEP_DATA, False)
        assert answer.json()["current_step"] == 3

    def test_a_completed_draft_is_no_longer_offered_for_resuming(self, signed_in_client, user):
        draft = make_draft(user)

        put(signed_in_client, draft.pk, {"is_completed": True})

        assert signed_in_client.get(f"{LIST_URL}?tool_type=pledging").json() == []

    def test_another_users_draft_is_not_found_and_stays_as_it_was(self, signed_in_client):
        theirs = make_draft(UserFactory.create(), current_step=2)

        answer = put(signed_in_client, theirs.pk, {"current_step": 5, "step_data": {"title": "Mine now"}})

        assert answer.status_code == 404
        assert answer.json()["detail"] == "Draft not found"
        theirs.refresh_from_db()
        assert (theirs.current_step, theirs.step_data) == (2, STEP_DATA)

    @pytest.mark.parametrize("draft_id", [0, 2**63, 10**30])
    def test_impossible_ids_are_not_found(self, signed_in_client, draft_id):
        assert put(signed_in_client, draft_id, {"current_step": 1}).status_code in (404, 422)

    def test_step_data_over_20_kb_is_refused(self, signed_in_client, user):
        draft = make_draft(user)

        answer = put(signed_in_client, draft.pk, {"step_data": {"story": "é" * 10_001}})

        assert answer.status_code == 422
        draft.refresh_from_db()
        assert draft.step_data == STEP_DATA
