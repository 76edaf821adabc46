"""Money as the server writes it in e-mails and SMS: whole shillings, as in the app (`Ksh 12,500`)."""

# The most any one amount may be, wherever money enters (pledges, gifts, payments recorded by hand,
# provider callbacks): far above any real one, well inside the database's integer columns.
AMOUNT_MAX = 1_000_000_000


def format_ksh(amount: int) -> str:
    return f"Ksh {amount:,}"
