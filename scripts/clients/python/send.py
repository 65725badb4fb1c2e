"""
Sends a fixed set of calls to fl0 through Segment's or RudderStack's Python
library, each used as its README shows: the module-level API with only the
write key, the host (Segment) or dataPlaneUrl (RudderStack) and on_error set,
every other setting at its default (RudderStack gzips its batches by default).

    python send.py segment|rudder URL WRITE_KEY PREFIX [events|invalid]

`events` sends identify, track, page, screen, group and alias, with ids and
message ids that start with PREFIX; `invalid` sends one track whose timestamp
fl0 cannot store (the year 1800), which it refuses with a 400. Then it flushes
and prints one JSON line: {"library", "version", "errors": [...]}, where each
error is what on_error was handed (its class, status, code and message).
"""

import json
import sys
from datetime import datetime, timezone

lib, url, write_key, prefix = sys.argv[1:5]
mode = sys.argv[5] if len(sys.argv) > 5 else "events"

if lib == "segment":
    import segment.analytics as analytics
    from segment.analytics.version import VERSION

    analytics.host = url
elif lib == "rudder":
    import rudderstack.analytics as analytics
    from rudderstack.analytics.version import VERSION

    analytics.dataPlaneUrl = url
else:
    raise SystemExit("unknown library: " + lib)

errors = []


def on_error(error, batch):
    errors.append(
        {
            "class": type(error).__name__,
            "status": getattr(error, "status", None),
            "code": getattr(error, "code", None),
            "message": getattr(error, "message", str(error)),
            "items": len(batch),
        }
    )


analytics.write_key = write_key
analytics.on_error = on_error

user = prefix + "-user"
when = datetime(2026, 2, 10, 9, 30, tzinfo=timezone.utc)

if mode == "events":
    analytics.identify(user, {"email": prefix + "@acme.test", "plan": "pro", "employees": 120}, timestamp=when, message_id=prefix + "-identify")
    analytics.track(user, "Report Created", {"charts": 3, "shared": True, "title": "Q3 \u2603"}, timestamp=when, message_id=prefix + "-track")
    analytics.page(
        user,
        None,
        "Pricing",
        {"url": "https://acme.test/pricing", "path": "/pricing", "title": "Pricing"},
        timestamp=when,
        message_id=prefix + "-page",
    )
    analytics.screen(user, None, "Settings", {"tab": "billing"}, timestamp=when, message_id=prefix + "-screen")
    analytics.group(user, prefix + "-acme", {"name": "Acme", "industry": "Tools"}, timestamp=when, message_id=prefix + "-group")
    analytics.alias(prefix + "-anon", user, timestamp=when, message_id=prefix + "-alias")
elif mode == "invalid":
    analytics.track(user, "Too Old", {"n": 1}, timestamp=datetime(1800, 1, 1, tzinfo=timezone.utc), message_id=prefix + "-invalid")
else:
    raise SystemExit("unknown mode: " + mode)

analytics.flush()
analytics.shutdown()
print(json.dumps({"library": lib, "version": VERSION, "errors": errors}))
