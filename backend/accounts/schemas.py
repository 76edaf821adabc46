from datetime import datetime

from ninja import Field, Schema

from accounts.models import User


class UserOut(Schema):
    @staticmethod
    def resolve_phone_verified(user: User) -> bool:
        return bool(user.verified_phone)

    id: int
    email: str
    first_name: str
    last_name: str
    phone: str
    phone_verified: bool = Field(description="The phone number was proven with a one-time SMS code.")
    avatar_url: str
    language: str
    display_name: str
    is_admin: bool
    created_at: datetime


class SessionOut(Schema):
    """Who is signed in (``user`` is null for visitors) and the CSRF token for unsafe requests."""

    user: UserOut | None
    csrf_token: str


class SignUpIn(Schema):
    first_name: str = ""
    last_name: str = ""
    email: str = ""
    phone: str = ""
    id_number: str = ""
    password: str = ""
    confirm_password: str = ""


class LanguageIn(Schema):
    language: str = ""


class LanguageOut(Schema):
    language: str


class SignInIn(Schema):
    email: str = ""
    password: str = ""


class PasswordResetIn(Schema):
    email: str = ""


class PasswordResetConfirmIn(Schema):
    uid: str = ""
    token: str = ""
    password: str = ""
    confirm_password: str = ""


class ProfileIn(Schema):
    first_name: str = ""
    last_name: str = ""
    phone: str = ""
    avatar_url: str = ""


class PhoneVerificationIn(Schema):
    phone: str = Field("", description="The number to prove (Kenyan); empty: the account's own.")


class PhoneVerificationOut(Schema):
    phone: str = Field(description="Where the code went, E.164.")
    expires_at: datetime = Field(description="10 minutes after sending; 5 tries.")


class PhoneCodeIn(Schema):
    code: str = ""


class PasswordChangeIn(Schema):
    current_password: str = ""
    new_password: str = ""
    confirm_password: str = ""


class MessageOut(Schema):
    detail: str


class PrivacyContactOut(Schema):
    """Who answers for personal data, named on the privacy notice."""

    controller: str
    email: str
