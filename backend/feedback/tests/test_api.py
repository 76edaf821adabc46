import pytest

from feedback.models import Feedback

pytestmark = pytest.mark.django_db

TOO_SHORT = "Please enter a message of at least 5 characters."


@pytest.mark.parametrize("message", ["", "abcd", "     ", "  ab  \n"])
def test_feedback_without_a_message_of_5_characters_is_refused_and_not_saved(api_client, message):
    response = api_client.post("/api/feedback", {"message": message, "contact": "grace@example.com"})

    assert response.status_code == 422
    assert response.json()["detail"] == TOO_SHORT
    assert response.json()["field_errors"] == {"message": TOO_SHORT}
    assert not Feedback.objects.exists()


def test_feedback_without_any_field_is_refused(api_client):
    response = api_client.post("/api/feedback", {})

    assert response.status_code == 422
    assert response.json()["field_errors"] == {"message": TOO_SHORT}


def test_feedback_over_5000_characters_is_refused(api_client):
    response = api_client.post("/api/feedback", {"message": "a" * 5001})

    assert response.status_code == 422
    assert response.json()["field_errors"] == {"message": "Please keep your message under 5,000 characters."}
    assert not Feedback.objects.exists()


def test_feedback_from_a_visitor_is_saved_without_a_user(api_client):
    response = api_client.post(
        "/api/feedback", {"message": "  The explore page is slow.  ", "contact": " 0712345678 ", "page": "/explore"}
    )

    assert response.status_code == 201
    feedback = Feedback.objects.get()
    assert response.json() == {"id": feedback.pk}
    assert feedback.message == "The explore page is slow."
    assert feedback.contact == "0712345678"
    assert feedback.page == "/explore"
    assert feedback.user is None


def test_feedback_from_a_signed_in_user_is_saved_with_the_user(signed_in_client, user):
    response = signed_in_client.post("/api/feedback", {"message": "Great platform!"})

    assert response.status_code == 201
    assert Feedback.objects.get().user == user


def test_feedback_contact_is_optional(api_client):
    response = api_client.post("/api/feedback", {"message": "Hello there"})

    assert response.status_code == 201
    assert Feedback.objects.get().contact == ""


def test_feedback_is_counted_and_saved_in_two_queries_for_a_visitor(api_client, django_assert_num_queries):
    # The address's counter (one upsert, in a table without Redis) and the message.
    with django_assert_num_queries(2):
        api_client.post("/api/feedback", {"message": "Hello there"})
