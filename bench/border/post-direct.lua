-- POST a small JSON webhook straight to the sink.
wrk.method = "POST"
wrk.path = "/hook"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"event":"invoice.paid","id":"evt_000000000001","amount":4200,"currency":"EUR","tenant":"acme"}'
