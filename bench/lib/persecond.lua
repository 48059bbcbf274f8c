-- post.lua's request (MODE, SINK_PORT... as there), plus completed responses per wall-clock second:
-- done() prints "second <epoch-s> <count>" lines, summed over the threads, for bench/jvm/warmup.sh.
-- BENCH_LIB: the directory holding post.lua.
dofile((os.getenv("BENCH_LIB") or "bench/lib") .. "/post.lua")
local post_response, post_done = response, done
counts = {} -- global: done() reads each thread's table through thread:get
threads = {}
setup = function(thread) table.insert(threads, thread) end
response = function(status, headers, body)
  local s = os.time()
  counts[s] = (counts[s] or 0) + 1
  post_response(status, headers, body)
end
done = function(summary, latency, requests)
  post_done(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    for s, n in pairs(t:get("counts")) do total[s] = (total[s] or 0) + n end
  end
  for s, n in pairs(total) do io.write(string.format("second %d %d\n", s, n)) end
end
