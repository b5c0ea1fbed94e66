"""Unit tests of catalogd.webhooks (run by webhooks_test.go with the installed SDK)."""

import unittest

from catalogd.webhooks import Coalescer, Verifier, WebhookVerificationError

# The example of the Standard Webhooks specification.
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
TS = 1614265330
BODY = b'{"test": 2432232314}'
SIG = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def headers(msg_id=MSG_ID, ts=str(TS), sig=SIG):
    h = {"webhook-id": msg_id, "webhook-timestamp": ts, "X-Webhook-Event-Type": "product.updated"}
    if sig is not None:
        h["webhook-signature"] = sig
    return h


class VerifierTest(unittest.TestCase):
    def verifier(self, now=TS, tolerance=5 * 60):
        return Verifier(SECRET, tolerance=tolerance, now=lambda: now)

    def test_spec_example(self):
        d = self.verifier().verify(headers(), BODY)
        self.assertEqual((d.id, d.timestamp, d.event_type, d.body), (MSG_ID, TS, "product.updated", BODY))
        self.assertEqual(self.verifier().sign(MSG_ID, TS, BODY), SIG)
        # Header names in any case (a plain dict).
        self.assertEqual(self.verifier().verify({k.upper(): v for k, v in headers().items()}, BODY).id, MSG_ID)

    def test_several_signatures(self):
        for sig in ("v1,AAAA " + SIG, "v2,xyz " + SIG + " v1,bm90IGl0", "v1a,abc " + SIG):
            self.verifier().verify(headers(sig=sig), BODY)

    def test_refused(self):
        for name, h, body, reason in [
            ("tampered body", headers(), b'{"test": 2432232315}', "signature"),
            ("other id", headers(msg_id="msg_other"), BODY, "signature"),
            ("other timestamp", headers(ts=str(TS + 1)), BODY, "signature"),
            ("no v1 signature", headers(sig="v2," + SIG[3:]), BODY, "signature"),
            ("bad base64", headers(sig="v1,%%%"), BODY, "signature"),
            ("no signature", headers(sig=None), BODY, "missing_headers"),
            ("no id", headers(msg_id=""), BODY, "missing_headers"),
            ("timestamp not a number", headers(ts="1614265330.5"), BODY, "timestamp"),
        ]:
            with self.subTest(name):
                with self.assertRaises(WebhookVerificationError) as cm:
                    self.verifier(now=TS + 1).verify(h, body)
                self.assertEqual(cm.exception.reason, reason)

    def test_timestamp_window(self):
        for now, tolerance, ok in [
            (TS + 300, 300, True), (TS - 300, 300, True),
            (TS + 301, 300, False),  # too old: a replay
            (TS - 301, 300, False),  # too far in the future
            (TS + 3600, 7200, True), (TS + 61, 60, False),
        ]:
            with self.subTest(now=now - TS, tolerance=tolerance):
                v = self.verifier(now=now, tolerance=tolerance)
                if ok:
                    v.verify(headers(), BODY)
                else:
                    with self.assertRaises(WebhookVerificationError) as cm:
                        v.verify(headers(), BODY)
                    self.assertEqual(cm.exception.reason, "timestamp")

    def test_bad_secrets(self):
        for s in ("", "whsec_", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_%%%"):
            with self.assertRaises(ValueError):
                Verifier(s)


class FakeTimer:
    """A timer the test fires by hand: no real time passes."""

    def __init__(self, clock, seconds, function):
        self.clock, self.seconds, self.function, self.cancelled = clock, seconds, function, False

    def start(self):
        self.clock.timers.append(self)

    def cancel(self):
        self.cancelled = True


class Clock:
    def __init__(self):
        self.timers = []

    def timer(self, seconds, function):
        return FakeTimer(self, seconds, function)

    def live(self):
        return [t for t in self.timers if not t.cancelled]

    def fire(self):
        """Runs every live timer (their debounce expired), as threading.Timer would."""
        live = self.live()
        self.timers = []
        for t in live:
            t.function()


class CoalescerTest(unittest.TestCase):
    def test_debounce(self):
        clock, fetched = Clock(), []
        c = Coalescer(fetched.append, debounce=2, timer=clock.timer)
        for _ in range(7):
            c.signal("p1")  # each event restarts the timer: one live timer, of the debounce
        self.assertEqual([t.seconds for t in clock.live()], [2])
        self.assertEqual(len(clock.timers), 7)
        clock.fire()
        self.assertEqual(fetched, ["p1"])  # one fetch for the burst
        c.signal("p1")  # after the fetch, a new event starts a new debounce
        self.assertEqual(len(clock.live()), 1)
        clock.fire()
        self.assertEqual(fetched, ["p1", "p1"])

    def test_per_entity(self):
        clock, fetched = Clock(), []
        c = Coalescer(fetched.append, debounce=1, timer=clock.timer)
        c.signal("a")
        c.signal("b")
        c.signal("a")
        self.assertEqual(len(clock.live()), 2)  # one timer per entity
        clock.fire()
        self.assertEqual(sorted(fetched), ["a", "b"])

    def test_pending(self):
        clock, fetched = Clock(), []
        c = Coalescer(None, debounce=1, timer=clock.timer)

        def fetch(key):
            fetched.append(key)
            if len(fetched) == 1:
                # Events during the fetch: no timer, no second fetch at once; the entity is pending.
                for _ in range(5):
                    c.signal(key)
                self.assertEqual(clock.live(), [])
                self.assertEqual(fetched, [key])

        c._fetch = fetch
        c.signal("p")
        clock.fire()
        # The fetch returned: exactly one further fetch followed, and nothing is left waiting.
        self.assertEqual(fetched, ["p", "p"])
        self.assertEqual(clock.live(), [])
        c.signal("p")
        clock.fire()
        self.assertEqual(fetched, ["p", "p", "p"])

    def test_cancelled_timer_does_not_fetch(self):
        clock, fetched = Clock(), []
        c = Coalescer(fetched.append, debounce=1, timer=clock.timer)
        c.signal("p")
        first = clock.timers[0]
        c.signal("p")
        first.function()  # a cancelled timer that was already running
        self.assertEqual(fetched, [])
        clock.fire()
        self.assertEqual(fetched, ["p"])

    def test_close(self):
        clock, fetched = Clock(), []
        c = Coalescer(fetched.append, debounce=1, timer=clock.timer)
        c.signal("p")
        timers = list(clock.timers)
        c.close()
        c.signal("q")
        for t in timers:
            t.function()
        self.assertEqual(fetched, [])
        self.assertEqual(clock.live(), [])

    def test_real_timer(self):
        # The default timer is threading.Timer; a short debounce, waited for by an Event.
        import threading
        done = threading.Event()
        got = []
        c = Coalescer(lambda k: (got.append(k), done.set()), debounce=0.01)
        c.signal("p")
        self.assertTrue(done.wait(60))
        self.assertEqual(got, ["p"])


if __name__ == "__main__":
    unittest.main()
