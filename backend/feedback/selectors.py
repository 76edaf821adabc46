from accounts.models import User
from feedback.models import Feedback


def feedback_personal_data_export(*, user: User) -> dict[str, object]:
    """The feedback the user sent signed in, for their download (``privacy``)."""
    return {"feedback": list(Feedback.objects.filter(user=user).order_by("created_at", "id"))}
