from datetime import datetime

from ninja import Field, Schema
from pydantic import AliasChoices

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


def _or_camel(name: str) -> AliasChoices:
    """Our snake_case field name, or the spec's camelCase one (section 7: ``firstName``)."""
    head, *rest = name.split("_")
    return AliasChoices(name, head + "".join(word.title() for word in rest))


class SignUpIn(Schema):
    first_name: str = Field("", validation_alias=_or_camel("first_name"))
    last_name: str = Field("", validation_alias=_or_camel("last_name"))
    email: str = ""
    phone: str = ""
    id_number: str = Field("", validation_alias=_or_camel("id_number"))
    password: str = ""
    confirm_password: str = Field("", validation_alias=_or_camel("confirm_password"))


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
