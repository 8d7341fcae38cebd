"""Log-in throttling: a few wrong passwords for one account, or many from one address, and
log-ins stop for a while — even with the right password — so guessing gets nowhere. Both
log-ins (the site's and the admin's) count here, in the guess counts of services/throttle.py."""

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
    """This log-in's place in its account's and its address's counts. Raises Throttled (not
    even checked: a locked account gives nothing away, right password or not)."""
    return guess_take("login", account=login_account(username), address=address)


def login_failed(username: str, address: str | None) -> None:
    """A wrong password keeps its place; the log says who was tried from where."""
    log.warning("failed log-in for %r from %s", login_account(username), address or "?")


def login_succeeded(guess: Guess) -> None:
    """A right password: its try given back, the account's earlier mistakes forgotten."""
    guess.right()
    guess.forget("account")
