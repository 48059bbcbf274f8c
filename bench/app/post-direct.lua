-- POST the same webhook payload straight to the sink: the baseline.
wrk.method = "POST"
wrk.path = "/hook"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"event":"invoice.paid","id":"evt_000000000001","amount":4200,"currency":"EUR","tenant":"acme"}'
local bad = 0
response = function(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("non-200: %d\n", bad))
end
