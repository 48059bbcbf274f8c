-- The same POST through Squid as a forward proxy: the request target is the absolute URL.
wrk.method = "POST"
wrk.path = "http://127.0.0.1:" .. (os.getenv("SINK_PORT") or "18080") .. "/hook"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"event":"invoice.paid","id":"evt_000000000001","amount":4200,"currency":"EUR","tenant":"acme"}'
