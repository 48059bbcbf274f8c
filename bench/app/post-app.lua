-- POST one webhook to App's public API (App -> Border -> sink). Counts non-200 answers so that a run
-- full of problems cannot pass as throughput.
wrk.method = "POST"
wrk.path = "/v1/deliveries"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. (os.getenv("APP_TOKEN") or "bench-api-token")
wrk.body = '{"tenantId":"acme","url":"http://127.0.0.1:' .. (os.getenv("SINK_PORT") or "19080") .. '/hook",'
    .. '"headers":{"Content-Type":"application/json"},'
    .. '"payload":{"event":"invoice.paid","id":"evt_000000000001","amount":4200,"currency":"EUR","tenant":"acme"}}'
local bad = 0
response = function(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("non-200: %d\n", bad))
end
