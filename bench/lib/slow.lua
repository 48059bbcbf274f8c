-- App's POST /v1/deliveries for one tenant, spread round-robin over many slow destinations.
--   DESTS       comma list of host:port the sink listens on (all must be allowed by the Border's SSRF ranges)
--   TENANT      the tenant (default acme)         APP_TOKEN  App's API token
-- done() prints the answers by status class (2xx, 429, 503, 504, other) and the latency percentiles (ms).
local dests = {}
for d in string.gmatch(os.getenv("DESTS") or "127.0.0.1:18280", "[^,]+") do dests[#dests + 1] = d end
local tenant = os.getenv("TENANT") or "acme"
local token = "Bearer " .. (os.getenv("APP_TOKEN") or "bench-api-token")
local webhook = '{"event":"invoice.paid","id":"evt_000000000001","amount":4200,"currency":"EUR","tenant":"' .. tenant .. '"}'
local bodies = {}
for i, d in ipairs(dests) do
  bodies[i] = '{"tenantId":"' .. tenant .. '","url":"http://' .. d .. '/hook","headers":{"Content-Type":"application/json"},'
      .. '"payload":' .. webhook .. '}'
end
local headers = { ["Content-Type"] = "application/json", ["Authorization"] = token }
local threads = {}
local n = 0
-- per-thread counters (globals of each thread's Lua state, read back in done() with thread:get)
c2xx, c429, c503, c504, cother = 0, 0, 0, 0, 0

setup = function(thread)
  thread:set("offset", #threads * 7)
  threads[#threads + 1] = thread
end

request = function()
  n = n + 1
  return wrk.format("POST", "/v1/deliveries", headers, bodies[((n + (offset or 0)) % #bodies) + 1])
end

response = function(status, hdrs, body)
  if status >= 200 and status < 300 then c2xx = c2xx + 1
  elseif status == 429 then c429 = c429 + 1
  elseif status == 503 then c503 = c503 + 1
  elseif status == 504 then c504 = c504 + 1
  else cother = cother + 1 end
end

done = function(summary, latency, requests)
  local t2, t429, t503, t504, to = 0, 0, 0, 0, 0
  for _, t in ipairs(threads) do
    t2 = t2 + t:get("c2xx"); t429 = t429 + t:get("c429"); t503 = t503 + t:get("c503")
    t504 = t504 + t:get("c504"); to = to + t:get("cother")
  end
  io.write(string.format("answers: 2xx=%d 429=%d 503=%d 504=%d other=%d\n", t2, t429, t503, t504, to))
  io.write(string.format("pcts: p50=%.1f p90=%.1f p99=%.1f max=%.1f ms\n", latency:percentile(50) / 1000,
      latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
