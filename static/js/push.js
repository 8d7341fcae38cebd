// "Notify me" / 「通知を受け取る」 (issue 49, CONTRACT §7): each [data-push] box of a page
// (templates/tournament/_push.html) turns Web Push on or off for one player of an event. The
// browser's permission is asked only when "Notify me" is tapped; the subscription is made by
// the players' own worker (/push/sw.js, scope /push/: the tables' worker keeps /t/) and sent
// to the event as JSON. Which players this browser asked for is kept in localStorage, so the
// page shows "Stop notifications" for them.
"use strict";
(() => {
  const boxes = document.querySelectorAll("[data-push]");
  const supported =
    "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  // The VAPID public key as the Push API wants it: base64url text to bytes.
  const bytes = (text) => {
    const base64 = (text + "=".repeat((4 - (text.length % 4)) % 4))
      .replace(/-/g, "+")
      .replace(/_/g, "/");
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  };

  // pushManager.subscribe needs an active worker: wait for a new one to activate.
  const active = (registration) =>
    new Promise((resolve) => {
      const worker = registration.installing || registration.waiting;
      if (!worker) return resolve(registration);
      worker.addEventListener("statechange", () => {
        if (worker.state === "activated") resolve(registration);
      });
    });

  const remembered = (key) => {
    try {
      return localStorage.getItem(key) === "on";
    } catch (error) {
      return false;
    }
  };
  const remember = (key, on) => {
    try {
      if (on) localStorage.setItem(key, "on");
      else localStorage.removeItem(key);
    } catch (error) {
      // private browsing without storage: the buttons forget, the subscription does not
    }
  };

  const post = (address, body) =>
    fetch(address, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });

  boxes.forEach((box) => {
    const on = box.querySelector("[data-push-on]");
    const off = box.querySelector("[data-push-off]");
    const status = box.querySelector("[data-push-status]");
    const key = `push:${box.dataset.event}:${box.dataset.player}`;
    const show = (subscribed) => {
      on.hidden = subscribed;
      off.hidden = !subscribed;
    };
    if (!supported) {
      status.textContent = box.dataset.textUnsupported;
      return;
    }
    show(remembered(key));

    on.addEventListener("click", async () => {
      on.disabled = true;
      try {
        const permission = await Notification.requestPermission();
        if (permission !== "granted") {
          status.textContent = box.dataset.textDenied;
          return;
        }
        const registration = await active(
          await navigator.serviceWorker.register(box.dataset.worker, { scope: box.dataset.scope }),
        );
        const serverKey = bytes(box.dataset.key);
        let subscription = await registration.pushManager.getSubscription();
        // Made with another key (the site's was replaced): the push service would refuse
        // our messages to it, so it is made again with this one.
        const held =
          subscription && subscription.options && subscription.options.applicationServerKey;
        if (held && new Uint8Array(held).join() !== serverKey.join()) {
          await subscription.unsubscribe();
          subscription = null;
        }
        if (!subscription) {
          subscription = await registration.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: serverKey,
          });
        }
        const reply = await post(box.dataset.url, {
          player: Number(box.dataset.player),
          subscription: subscription.toJSON(),
          language: box.dataset.language,
        });
        if (reply.status === 429) {
          // Too many from this network (the server's words, in the page's language).
          const said = await reply.json().catch(() => ({}));
          throw new Error(said.error || box.dataset.textFailed, { cause: "throttled" });
        }
        if (reply.status !== 201) throw new Error(`push: ${reply.status}`);
        remember(key, true);
        show(true);
        status.textContent = box.dataset.textOn;
      } catch (error) {
        status.textContent = error.cause === "throttled" ? error.message : box.dataset.textFailed;
      } finally {
        on.disabled = false;
      }
    });

    off.addEventListener("click", async () => {
      off.disabled = true;
      try {
        const registration = await navigator.serviceWorker.getRegistration(box.dataset.scope);
        const subscription = registration && (await registration.pushManager.getSubscription());
        // The browser's subscription is kept (another event may use it); this event's ends.
        if (subscription) {
          const reply = await post(box.dataset.stopUrl, { endpoint: subscription.endpoint });
          if (!reply.ok) throw new Error(`push: ${reply.status}`);
        }
        remember(key, false);
        show(false);
        status.textContent = box.dataset.textOff;
      } catch (error) {
        status.textContent = box.dataset.textStopFailed; // still on: the server was not told
      } finally {
        off.disabled = false;
      }
    });
  });
})();
