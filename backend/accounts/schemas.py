from datetime import datetime

from ninja import Schema


class UserOut(Schema):
    id: int
    email: str
    first_name: str
    last_name: str
    phone: str
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
