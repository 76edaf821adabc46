from ninja import Field, Schema


class RemindOut(Schema):
    detail: str


class ReminderSettingsIn(Schema):
    enabled: bool
    offsets: list[str] = Field(max_length=20)
    new_pledge_digest: bool


class ReminderSettingsOut(Schema):
    enabled: bool
    offsets: list[str]
    new_pledge_digest: bool
    offset_choices: list[str] = Field(description="Every offset the organizer may choose, in the order they fall.")
