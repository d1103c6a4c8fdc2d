-- wrk.lua: the request and the JSON summary of one bench/run wrk run (wrk -s bench/wrk.lua).
--
-- Options (environment):
--   BENCH_METHOD   GET (default) or POST
--   BENCH_BODY     request body (POST; sent as application/x-www-form-urlencoded)
--   BENCH_COOKIE   Cookie header, if any
--   BENCH_BODIES   a file of request bodies, one per line, used in turn (each thread from its own place in the list):
--                  sign-ins spread over many accounts, as many people signing in are
--   BENCH_STEADY   1: also time every response and report "steady_rps", the rate once the pipeline is full
--                  (from the 32nd answer to the last, BENCH_CONNECTIONS if not 32; wrk's rate under 64 answers): with sign-ins taking seconds
--                  each, wrk's own rate loses the time before the first answers (and the requests cut off at the
--                  end) against the argon2 loop, which hashes from t=0
--   BENCH_OUT      file the summary goes to: {"requests", "seconds", "rps", "steady_rps", "p50_ms", "p90_ms",
--                  "p99_ms", "status_errors", "connect", "read", "write", "timeout", "bytes"}; wrk's own report goes to stdout
wrk.method = os.getenv("BENCH_METHOD") or "GET"
local body = os.getenv("BENCH_BODY")
if body and body ~= "" then
   wrk.body = body
   wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
end
local cookie = os.getenv("BENCH_COOKIE")
if cookie and cookie ~= "" then
   wrk.headers["Cookie"] = cookie
end

local threads = {}
function setup(thread)
   table.insert(threads, thread)
   thread:set("offset", #threads * 7)
end

local bodies_path = os.getenv("BENCH_BODIES")
if bodies_path and bodies_path ~= "" then
   local bodies = {}
   for line in io.lines(bodies_path) do bodies[#bodies + 1] = line end
   local next_body = nil
   function request()
      next_body = ((next_body or offset or 0) % #bodies) + 1
      return wrk.format(nil, nil, nil, bodies[next_body])
   end
end

if os.getenv("BENCH_STEADY") == "1" then
   local ffi = require("ffi")
   ffi.cdef[[
      typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
      int clock_gettime(int clock, bench_timespec *now);
   ]]
   local now = ffi.new("bench_timespec")
   times = {}   -- a global of each thread's Lua state, read back with thread:get
   function response(status, headers, body)
      ffi.C.clock_gettime(1, now)   -- CLOCK_MONOTONIC
      times[#times + 1] = tonumber(now.tv_sec) + tonumber(now.tv_nsec) / 1e9
   end
end

-- Responses per second between the `skip`-th response (32: one per connection, so the pipeline is full and
-- answers arriving in batches of any size up to 32 are counted whole) and the last one.
local function steady_rate(fallback)
   local all = {}
   for _, thread in ipairs(threads) do
      for _, t in ipairs(thread:get("times") or {}) do all[#all + 1] = t end
   end
   table.sort(all)
   local skip = tonumber(os.getenv("BENCH_CONNECTIONS") or "32")
   if #all < 2 * skip or all[#all] <= all[skip] then return fallback end   -- too few answers: wrk's own rate
   return (#all - skip) / (all[#all] - all[skip])
end

function done(summary, latency, requests)
   local seconds = summary.duration / 1e6
   local e = summary.errors
   local line = string.format(
      '{"requests": %d, "seconds": %.3f, "rps": %.2f, "steady_rps": %.2f, "p50_ms": %.3f, "p90_ms": %.3f, "p99_ms": %.3f, "status_errors": %d, ' ..
      '"connect": %d, "read": %d, "write": %d, "timeout": %d, "bytes": %d}\n',
      summary.requests, seconds, summary.requests / seconds, steady_rate(summary.requests / seconds), latency:percentile(50) / 1000,
      latency:percentile(90) / 1000, latency:percentile(99) / 1000, e.status, e.connect, e.read, e.write, e.timeout, summary.bytes)
   local path = os.getenv("BENCH_OUT")
   if path and path ~= "" then
      local file = assert(io.open(path, "w"))
      file:write(line)
      file:close()
   else
      io.write(line)
   end
end
