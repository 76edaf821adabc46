"""Money as the server writes it in e-mails and SMS: whole shillings, as in the app (`Ksh 12,500`)."""


def format_ksh(amount: int) -> str:
    return f"Ksh {amount:,}"
