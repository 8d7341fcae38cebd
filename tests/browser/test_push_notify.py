"""Issue 49 in a browser: "Notify me" on find your seat registers the players' worker
(/push/sw.js, scope /push/), asks the notification permission only when tapped, and sends the
subscription to the event; "Stop notifications" ends it. Chromium's push service cannot be
reached here, so `PushManager` is stubbed: its subscription is a made-up endpoint on this
machine, and the page's POST is what is checked."""

from __future__ import annotations

import base64
import random
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.tournament.factories import make_event
from tournament.models import PushSubscription
from tournament.push_keys import private_key_new, vapid_of
from tournament.services.rounds import round_seat

pytestmark = [pytest.mark.django_db(transaction=True)]

ENDPOINT = "http://127.0.0.1:9/stub-endpoint"
P256DH = (  # a browser's public key as Chromium sends it (any point: nothing is encrypted here)
    "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
)
# Before the page's scripts: the permission granted when asked (and counted), and a push
# subscription made up where Chromium would ask Google's service — kept across a reload, as
# the browser keeps a real one.
STUB = """
window.__asked = 0;
window.__subscribed = [];
window.__unsubscribed = 0;
Notification.requestPermission = async () => { window.__asked += 1; return "granted"; };
const made = (key) => ({
  endpoint: "__ENDPOINT__",
  options: { applicationServerKey: new Uint8Array(key).buffer },
  async unsubscribe() {
    sessionStorage.removeItem("stub-key");
    window.__unsubscribed += 1;
    return true;
  },
  toJSON() {
    return { endpoint: this.endpoint, expirationTime: null,
             keys: { p256dh: "__P256DH__", auth: "tBHItJI5svbpez7KI4CCXg" } };
  },
});
PushManager.prototype.getSubscription = async function () {
  const key = sessionStorage.getItem("stub-key");
  return key ? made(JSON.parse(key)) : null;
};
PushManager.prototype.subscribe = async function (options) {
  const key = Array.from(new Uint8Array(options.applicationServerKey));
  window.__subscribed.push(key);
  sessionStorage.setItem("stub-key", JSON.stringify(key));
  return made(key);
};
""".replace("__ENDPOINT__", ENDPOINT).replace("__P256DH__", P256DH)


@pytest.fixture
def vapid(settings) -> str:
    settings.VAPID_PRIVATE_KEY = private_key_new()
    return settings.VAPID_PRIVATE_KEY


def _seated():
    event = make_event(slug="push", players=[f"P{i:02d}" for i in range(8)])
    round_seat(event=event, rng=random.Random(2))
    return event


def _key_bytes(private_key: str) -> list[int]:
    public = vapid_of(private_key)[1]
    return list(base64.urlsafe_b64decode(public + "=" * (-len(public) % 4)))


def test_notify_me_sends_the_subscription_and_stop_ends_it(live_server, phone, vapid):
    _seated()
    phone.add_init_script(STUB)
    phone.goto(f"{live_server.url}/events/push/seat/?name=P03")
    on = phone.get_by_role("button", name="Notify me")
    expect(on).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375  # fits the phone
    assert phone.evaluate("window.__asked") == 0  # nothing asked before the tap
    on.click()
    expect(phone.get_by_text("Notifications are on for this phone.")).to_be_visible()
    assert phone.evaluate("window.__asked") == 1
    assert phone.evaluate("window.__subscribed") == [_key_bytes(vapid)]
    [row] = PushSubscription.objects.select_related("player")
    assert (row.player.name, row.endpoint, row.language) == ("P03", ENDPOINT, "en")
    # The players' worker is registered under its own scope, not the tables' /t/.
    scope = phone.evaluate(
        "navigator.serviceWorker.getRegistration('/push/').then((r) => r && r.scope)"
    )
    assert scope == f"{live_server.url}/push/"
    phone.reload()
    stop = phone.get_by_role("button", name="Stop notifications")
    expect(stop).to_be_visible()  # this browser remembers it asked for P03
    stop.click()
    expect(phone.get_by_text("Notifications are off.")).to_be_visible()
    expect(phone.get_by_role("button", name="Notify me")).to_be_visible()
    assert not PushSubscription.objects.exists()
    assert phone.problems == []


def test_in_japanese_the_button_and_the_messages_language_are_japanese(
    live_server, browser: Any, vapid
):
    _seated()
    context = browser.new_context(viewport={"width": 375, "height": 740}, locale="ja-JP")
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.add_init_script(STUB)
    page.goto(f"{live_server.url}/events/push/seat/?name=P05")
    page.get_by_role("button", name="通知を受け取る").click()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    expect(page.get_by_text("この端末に通知が届きます。")).to_be_visible()
    [row] = PushSubscription.objects.select_related("player")
    assert (row.player.name, row.language) == ("P05", "ja")
    expect(page.get_by_role("button", name="通知を止める")).to_be_visible()
    context.close()
    assert problems == []


def test_without_a_key_the_page_offers_nothing(live_server, phone, settings):
    settings.VAPID_PRIVATE_KEY = ""
    _seated()
    phone.goto(f"{live_server.url}/events/push/seat/?name=P03")
    expect(phone.locator(".found-seats .name")).to_have_text("P03")
    assert phone.locator("[data-push]").count() == 0
    assert phone.problems == []


def test_a_subscription_made_with_another_key_is_made_again(live_server, phone, vapid):
    """The site's key replaced since this browser subscribed: the push service would refuse
    messages signed with the new one, so the page subscribes again before sending."""
    _seated()
    phone.add_init_script(STUB)
    phone.goto(f"{live_server.url}/events/push/seat/?name=P01")
    phone.evaluate("sessionStorage.setItem('stub-key', JSON.stringify(Array(65).fill(4)))")
    phone.get_by_role("button", name="Notify me").click()
    expect(phone.get_by_text("Notifications are on for this phone.")).to_be_visible()
    assert phone.evaluate("window.__unsubscribed") == 1
    assert phone.evaluate("window.__subscribed") == [_key_bytes(vapid)]
    assert PushSubscription.objects.get().player.name == "P01"
    assert phone.problems == []
