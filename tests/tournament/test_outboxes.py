"""Issue 49: the two outboxes — a player's push messages and the organizer's channel posts —
share their columns (models/outbox.py) and their sender loop (services/outbox_send.py), and
are sent each on its own (services/outboxes.py): one kind raising holds up neither the other
kind nor its own next run."""

from __future__ import annotations

import io
import logging
import random

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from tests.tournament.factories import make_event
from tests.tournament.test_push import Browser, messages, subscribe
from tournament.models import ChannelPost, Notification
from tournament.models.outbox import Outbox
from tournament.services import channel_send, push_send
from tournament.services.channels import channels_set
from tournament.services.outboxes import AFTER_FAILURE, outboxes_next, outboxes_send
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(hook, push_service, vapid):
    event = make_event(slug="both", players=[f"P{i:02d}" for i in range(8)])
    channels_set(event=event, urls=[hook.url("club")], language="en", site="http://testserver/")
    return event


def _broken(*args, **kwargs):
    raise RuntimeError("a library's bug")


def test_a_push_failure_that_raises_still_lets_the_channel_post_go(
    event, hook, push_service, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    browser = Browser(f"{push_service.base}/p01")
    assert subscribe(Client(), event, "P01", browser, "en").status_code == 201
    monkeypatch.setattr(push_send, "notification_payloads", _broken)
    with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
        round_seat(event=event, rng=random.Random(1))  # the task runs once it commits
    assert len(hook.posts("club")) == 1  # the channel was told the seating all the same
    assert not ChannelPost.objects.exists()
    assert messages(push_service, browser) == []
    [waiting] = Notification.objects.all()  # kept, leased: tried again, not lost
    assert waiting.due_at > timezone.now()
    assert any("push outbox failed" in r.getMessage() for r in caplog.records)
    # The next run, the library mended and the lease over, sends it.
    monkeypatch.undo()
    Notification.objects.update(due_at=timezone.now())
    out = io.StringIO()
    call_command("notifications", "--once", stdout=out)
    assert out.getvalue().strip() == "1 sent"
    assert len(messages(push_service, browser)) == 1


def test_a_channel_failure_that_raises_still_lets_the_push_go(
    event, hook, push_service, monkeypatch, django_capture_on_commit_callbacks
):
    browser = Browser(f"{push_service.base}/p02")
    assert subscribe(Client(), event, "P02", browser, "ja").status_code == 201
    monkeypatch.setattr(channel_send, "channel_texts", _broken)
    with django_capture_on_commit_callbacks(execute=True):
        round_seat(event=event, rng=random.Random(1))
    assert len(messages(push_service, browser)) == 1
    assert hook.received == {} and ChannelPost.objects.count() == 1


def test_a_kind_that_raised_comes_again_after_a_pause_not_at_once(event, monkeypatch):
    monkeypatch.setattr(channel_send, "channel_texts", _broken)
    round_seat(event=event, rng=random.Random(1))
    ChannelPost.objects.update(due_at=timezone.now())
    before = timezone.now()
    run = outboxes_send()
    assert run.failed == ["channels"] and run.sent == {"push": 0, "channels": 0}
    ChannelPost.objects.update(due_at=before)  # even were it due now: not before the pause
    assert outboxes_next(run) >= before + AFTER_FAILURE


def test_both_outboxes_share_their_queue_columns():
    shared = {f.name for f in Outbox._meta.get_fields()}
    assert shared == {"attempts", "due_at", "created_at"}
    for model in (Notification, ChannelPost):
        assert issubclass(model, Outbox)
        assert [i.name for i in model._meta.indexes] == [f"tournament_{model._meta.model_name}_due"]
