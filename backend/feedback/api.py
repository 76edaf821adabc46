from django.http import HttpRequest
from ninja import Router, Schema, Status

from accounts.auth import request_user
from common.ratelimit import client_ip
from common.schemas import ErrorOut
from feedback import services

router = Router(tags=["feedback"])


class FeedbackIn(Schema):
    message: str = ""
    contact: str = ""
    page: str = ""


class FeedbackOut(Schema):
    id: int


@router.post("/feedback", response={201: FeedbackOut, 403: ErrorOut, 422: ErrorOut, 429: ErrorOut})
def feedback_create(request: HttpRequest, payload: FeedbackIn) -> Status[dict[str, int]]:
    feedback = services.feedback_create(user=request_user(request), client_ip=client_ip(request), **payload.dict())
    return Status(201, {"id": feedback.pk})
