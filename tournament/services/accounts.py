"""Log-in throttling: a few wrong passwords for one account from one address, or many from one
address, and log-ins from there stop for a while — even with the right password — so guessing
gets nowhere, while the organizer logging in from anywhere else is not stopped by them. One
account's wrong passwords from every address have a ceiling of their own, far higher: only
many addresses reach it. Both log-ins (the site's and the admin's) count here, in the guess
counts of services/throttle.py."""

from __future__ import annotations

import logging

from django.contrib.auth.forms import UsernameField

from tournament.services.throttle import Guess, guess_take

log = logging.getLogger(__name__)


def login_account(username: str) -> str:
    """The name failures are counted under: exactly what log-in compares — Django's log-in
    form trims the name and folds it by NFKC (` victim1` and `ｖｉｃｔｉｍ1` are victim1) — so
    no other spelling of one account gets guesses of its own. NUL characters are dropped (the
    form refuses them anyway); the field's length; case folded, as the lock always was."""
    return UsernameField().to_python(username.replace("\x00", ""))[:150].casefold()


def login_guess(username: str, address: str | None) -> Guess:
    """This log-in's place in its account's count at this address, its address's, and its
    account's from everywhere. Raises Throttled (not even checked: a locked account gives
    nothing away, right password or not)."""
    account = login_account(username)
    return guess_take(
        "login",
        account=f"{account}\x00{address or '?'}",  # NUL: no name or address holds one
        address=address,
        account_anywhere=account,
    )


def login_failed(username: str, address: str | None) -> None:
    """A wrong password keeps its place; the log says who was tried from where."""
    log.warning("failed log-in for %r from %s", login_account(username), address or "?")


def login_succeeded(guess: Guess) -> None:
    """A right password: its try given back, the account's earlier mistakes forgotten (here
    and everywhere: the owner is back in)."""
    guess.right()
    guess.forget("account")
    guess.forget("account_anywhere")
