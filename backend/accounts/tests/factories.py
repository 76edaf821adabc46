import factory

from accounts.models import User

# Meets both password rules (sign-up/reset and profile change).
DEFAULT_PASSWORD = "Harambee#2026"


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = User
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"user{n}@example.com")
    first_name = "Wanjiru"
    last_name = "Kamau"
    phone = factory.Sequence(lambda n: f"+2547{n % 10**8:08d}")
    id_number = factory.Sequence(lambda n: f"{12000000 + n}")
    password = factory.django.Password(DEFAULT_PASSWORD)
