"""Log-in throttling: a few wrong passwords for one account from one network, or many from
one network, and log-ins from there stop for a while — even with the right password — so
guessing gets nowhere, while the organizer logging in from any other network is not stopped
by them (locked by account and network, as django-axes' `["username", "ip_address"]` does).
One account's wrong passwords from every network have a ceiling of their own, far higher,
which stops only networks that have failed that account: a network that has not is never
refused the right password, so a guesser past the ceiling gets one try per network it has
not used, and the owner from home or the venue gets in. Both log-ins (the site's and the
admin's) count here, in the guess counts of services/throttle.py; a log-in link by e-mail
(Django's password reset, `reset_guess`) is the way in that no lock closes."""

from __future__ import annotations

import logging

from django.contrib.auth.forms import UsernameField

from tournament.services.throttle import (
    Guess,
    Throttled,
    guess_counted,
    guess_forget,
    guess_take,
)

log = logging.getLogger(__name__)


def login_account(username: str) -> str:
    """The name failures are counted under: exactly what log-in compares — Django's log-in
    form trims the name and folds it by NFKC (` victim1` and `ｖｉｃｔｉｍ1` are victim1) — so
    no other spelling of one account gets guesses of its own. NUL characters are dropped (the
    form refuses them anyway); the field's length; case folded, as the lock always was."""
    return UsernameField().to_python(username.replace("\x00", ""))[:150].casefold()


def login_guess(username: str, network: str | None) -> Guess:
    """This log-in's place in its account's count at this network, its network's, and its
    account's from everywhere — the last refusing only a network that has failed this account
    in the window. Raises Throttled (not even checked: a locked account gives nothing away,
    right password or not)."""
    account = login_account(username)
    here = f"{account}\x00{network or '?'}"  # NUL: no name or address holds one
    failed_here = guess_counted("login", account=here)
    return guess_take(
        "login",
        account=here,
        address=network,
        account_anywhere=account,
        unchecked=() if failed_here else ("account_anywhere",),
    )


def login_unlock(username: str, network: str | None) -> None:
    """The account's owner proved themselves through the log-in link mailed to them: the
    account's wrong passwords from this network and from everywhere are forgotten, so the new
    password logs in here next time too. The network's count of other accounts stays."""
    account = login_account(username)
    guess_forget("login", account=f"{account}\x00{network or '?'}")
    guess_forget("login", account_anywhere=account)


def reset_guess(email: str, network: str | None) -> bool:
    """Whether a log-in link may be mailed to `email` now: Throttled if this network has asked
    for too many; False (answer as if sent, send nothing) if this address has had its share."""
    guess_take("reset", address=network)
    try:
        guess_take("reset", account=email.strip().casefold()[:254])
    except Throttled:
        return False
    return True


def login_failed(username: str, address: str | None) -> None:
    """A wrong password keeps its place; the log says who was tried from where."""
    log.warning("failed log-in for %r from %s", login_account(username), address or "?")


def login_succeeded(guess: Guess) -> None:
    """A right password: its try given back, the account's earlier mistakes forgotten (here
    and everywhere: the owner is back in)."""
    guess.right()
    guess.forget("account")
    guess.forget("account_anywhere")
