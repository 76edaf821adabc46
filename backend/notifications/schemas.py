from ninja import Schema


class RemindOut(Schema):
    detail: str
