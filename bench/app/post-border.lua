-- App's forward call, sent straight to the Border: isolates the Border hop (Border -> sink) so that
-- App's own share is app - border.
wrk.method = "POST"
wrk.path = "/internal/v1/egress"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. (os.getenv("INTERNAL_TOKEN") or "bench-internal-token")
local payload = '{\\"event\\":\\"invoice.paid\\",\\"id\\":\\"evt_000000000001\\",\\"amount\\":4200,\\"currency\\":\\"EUR\\",\\"tenant\\":\\"acme\\"}'
wrk.body = '{"deliveryId":"bench","sourceIp":"' .. (os.getenv("SRC_IP") or "127.0.0.3")
    .. '","url":"http://127.0.0.1:' .. (os.getenv("SINK_PORT") or "19080") .. '/hook","method":"POST",'
    .. '"headers":{"Content-Type":"application/json"},"body":"' .. payload .. '"}'
local bad = 0
response = function(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("non-200: %d\n", bad))
end
