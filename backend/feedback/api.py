from django.http import HttpRequest
from ninja import Router, Schema

from accounts.auth import request_user
from common.schemas import ErrorOut
from feedback import services

router = Router(tags=["feedback"])


class FeedbackIn(Schema):
    message: str = ""
    contact: str = ""
    page: str = ""


class FeedbackOut(Schema):
    id: int


@router.post("/feedback", response={201: FeedbackOut, 403: ErrorOut, 422: ErrorOut})
def feedback_create(request: HttpRequest, payload: FeedbackIn) -> tuple[int, dict[str, int]]:
    feedback = services.feedback_create(user=request_user(request), **payload.dict())
    return 201, {"id": feedback.pk}
