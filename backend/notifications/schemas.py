from ninja import Field, Schema


class RemindOut(Schema):
    detail: str


class CircleRemindOut(Schema):
    sent: int = Field(description="Reminders queued: one to each pledger in the circle who still owes.")
    skipped: int = Field(description="Those who still owe but opted out of reminders, or had one recently.")


class ReminderSettingsIn(Schema):
    enabled: bool
    offsets: list[str] = Field(max_length=20)
    new_pledge_digest: bool


class ReminderSettingsOut(Schema):
    enabled: bool
    offsets: list[str]
    new_pledge_digest: bool
    offset_choices: list[str] = Field(description="Every offset the organizer may choose, in the order they fall.")
