"""Demo accounts for local use. Loaded by ``manage.py load_demo_data``."""

from typing import Any

from accounts.models import User

DEMO_PASSWORD = "Harambee#2026"  # noqa: S105 - printed by `make run`; refused in production
DEMO_USERS: list[dict[str, Any]] = [
    {"email": "organizer@harambee.local", "first_name": "Grace", "last_name": "Wanjiku", "phone": "+254712345678"},
    {
        "email": "admin@harambee.local",
        "first_name": "Peter",
        "last_name": "Otieno",
        "phone": "+254722000111",
        "is_staff": True,
        "is_superuser": True,
    },
    {"email": "member@harambee.local", "first_name": "Amina", "last_name": "Hassan", "phone": "+254733000222"},
    # The organizer's team (organizations/demo.py): a treasurer and a viewer.
    {"email": "treasurer@harambee.local", "first_name": "Joseph", "last_name": "Kamau", "phone": "+254744000333"},
    {"email": "viewer@harambee.local", "first_name": "Faith", "last_name": "Njeri", "phone": "+254755000444"},
]


def demo_users_load() -> list[User]:
    users = []
    for fields in DEMO_USERS:
        user = User.objects.filter(email__iexact=fields["email"]).first()
        if user is None:
            user = User.objects.create_user(password=DEMO_PASSWORD, id_number="12345678", **fields)
        users.append(user)
    return users
