-- One POST of the same ~100 B JSON webhook (PAD_BYTES: larger) along one path, chosen by MODE:
--   direct  POST /hook to the sink            squid  the same POST, absolute URL (forward proxy)
--   border  the Border's forward API (JSON)    app    App's POST /v1/deliveries (App -> Border -> sink)
--   border-raw  the same in the raw form App sends (application/vnd.egress.forward)
-- done() prints the percentile series (µs) for the plots and the count of non-2xx answers.
local mode = os.getenv("MODE") or "direct"
local sink = os.getenv("SINK_PORT") or "18280"
local webhook = '{"event":"invoice.paid","id":"evt_000000000001","amount":4200,"currency":"EUR","tenant":"acme"}'
-- PAD_BYTES=n: a larger webhook, the same one with a "pad" string of n bytes (what a body's size costs).
local pad = tonumber(os.getenv("PAD_BYTES") or "0")
if pad > 0 then webhook = webhook:sub(1, -2) .. ',"pad":"' .. string.rep("x", pad) .. '"}' end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
if mode == "direct" then
  wrk.path = "/hook"; wrk.body = webhook
elseif mode == "squid" then
  wrk.path = "http://127.0.0.1:" .. sink .. "/hook"; wrk.body = webhook
elseif mode == "border" then
  wrk.path = "/internal/v1/egress"
  wrk.headers["Authorization"] = "Bearer " .. (os.getenv("INTERNAL_TOKEN") or "bench-internal-token")
  wrk.body = '{"deliveryId":"bench","sourceIp":"' .. (os.getenv("SRC_IP") or "127.0.0.2")
      .. '","url":"http://127.0.0.1:' .. sink .. '/hook","method":"POST",'
      .. '"headers":{"Content-Type":"application/json"},"body":"' .. (webhook:gsub('"', '\\"')) .. '"}'
elseif mode == "border-raw" then
  -- The forward call's raw form, as App sends it: a 4-byte big-endian head length, the JSON head, the body's bytes.
  wrk.path = "/internal/v1/egress"
  wrk.headers["Authorization"] = "Bearer " .. (os.getenv("INTERNAL_TOKEN") or "bench-internal-token")
  wrk.headers["Content-Type"] = "application/vnd.egress.forward"
  wrk.headers["Accept"] = "application/vnd.egress.forward, application/problem+json"
  local head = '{"deliveryId":"bench","sourceIp":"' .. (os.getenv("SRC_IP") or "127.0.0.2")
      .. '","url":"http://127.0.0.1:' .. sink .. '/hook","method":"POST",'
      .. '"headers":{"Content-Type":"application/json"},"body":true}'
  local n = #head
  wrk.body = string.char(math.floor(n / 16777216) % 256, math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
      .. head .. webhook
elseif mode == "app" then
  wrk.path = "/v1/deliveries"
  wrk.headers["Authorization"] = "Bearer " .. (os.getenv("APP_TOKEN") or "bench-api-token")
  wrk.body = '{"tenantId":"acme","url":"http://127.0.0.1:' .. sink .. '/hook",'
      .. '"headers":{"Content-Type":"application/json"},"payload":' .. webhook .. '}'
end
local bad = 0
response = function(status, headers, body)
  if status < 200 or status > 299 then bad = bad + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("non-2xx: %d\n", bad))
  io.write(string.format("pcts: p50=%d p99=%d p99.9=%d max=%d us\n", latency:percentile(50),
      latency:percentile(99), latency:percentile(99.9), latency.max))
  for _, p in ipairs({1, 5, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 95, 97, 98, 99, 99.5, 99.9, 99.95, 99.99}) do
    io.write(string.format("pct %g %d\n", p, latency:percentile(p)))
  end
end
