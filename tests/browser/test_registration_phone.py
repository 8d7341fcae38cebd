"""Sign-up on a phone (issue 50), in both languages: the form fits a 390-pixel screen without
sideways scrolling, a field refused says so beside it with what was typed kept, the page after
it says to check the mail, and the private link mailed (issue 63: opening it confirms) fits too
and withdraws the entry once its box is ticked."""

from __future__ import annotations

import pytest

from tests.tournament.factories import make_event
from tournament.models import SignUp
from tournament.services.registration import registration_set

pytestmark = [pytest.mark.django_db(transaction=True)]

FITS = "() => document.documentElement.scrollWidth <= window.innerWidth"


@pytest.mark.parametrize(
    ("locale", "words"), [("en-GB", "waiting list"), ("ja-JP", "キャンセル待ち")]
)
def test_sign_up_and_withdraw_on_a_phone(live_server, browser, locale, words):
    event = make_event(slug="phone-su", players=["Aoki"])
    registration_set(event=event, open=True, capacity=1)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/events/phone-su/register/")
        assert page.evaluate(FITS)
        page.fill("input[name=name]", "Baba Hanako")
        page.fill("input[name=email]", "not an address")
        with page.expect_navigation():
            page.click("main form button[type=submit]")
        assert page.input_value("input[name=name]") == "Baba Hanako"
        assert page.locator("input[name=email][aria-invalid=true]").count() == 1
        page.fill("input[name=email]", "hanako@example.org")
        with page.expect_navigation():
            page.click("main form button[type=submit]")
        page.wait_for_selector("[data-sent]")
        assert "hanako@example.org" in page.inner_text("main")
        assert page.evaluate(FITS)
        token = SignUp.objects.get(name="Baba Hanako").token  # the link in the mail
        page.goto(f"{live_server.url}/events/phone-su/register/{token}/")
        page.wait_for_selector("[data-confirmed]")
        assert words in page.inner_text("[data-state=waiting]")
        assert page.evaluate(FITS)
        page.check("input[name=confirm]")
        page.click("main form button[type=submit]")
        page.wait_for_selector("[data-state=withdrawn]")
        assert SignUp.objects.get(name="Baba Hanako").state == "withdrawn"
    finally:
        context.close()
