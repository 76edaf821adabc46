"""Who is at a desk: a signed-in member of the campaign's team, or a volunteer's desk passcode."""

from dataclasses import dataclass

from accounts.models import User
from desk.models import DeskPasscode, usher_key_of


@dataclass(frozen=True)
class DeskActor:
    """Who is at the desk: a signed-in member of the team, or a volunteer's passcode (never both)."""

    user: User | None = None
    passcode: DeskPasscode | None = None

    @property
    def name(self) -> str:
        if self.user is not None:
            return self.user.display_name
        assert self.passcode is not None
        return self.passcode.volunteer

    @property
    def usher_key(self) -> str:
        """Who is typing, as the cash count names ushers (``usher_key_of``)."""
        return usher_key_of(
            usher_id=self.user.pk if self.user is not None else None,
            passcode_id=self.passcode.pk if self.passcode is not None else None,
        )

    @property
    def limit_key(self) -> str:
        return (
            f"user:{self.user.pk}" if self.user is not None else f"passcode:{self.passcode.pk if self.passcode else 0}"
        )
