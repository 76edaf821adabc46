from ninja import Schema


class ErrorOut(Schema):
    """Every error answer: a message to show, a stable code, and messages per field."""

    detail: str
    code: str = "invalid"
    field_errors: dict[str, str] = {}
