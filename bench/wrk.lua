-- wrk.lua: the request and the JSON summary of one bench/run wrk run (wrk -s bench/wrk.lua).
--
-- Options (environment):
--   BENCH_METHOD   GET (default) or POST
--   BENCH_BODY     request body (POST; sent as application/x-www-form-urlencoded)
--   BENCH_COOKIE   Cookie header, if any
--   BENCH_OUT      file the summary goes to: {"requests", "seconds", "rps", "p50_ms", "p99_ms", "status_errors",
--                  "connect", "read", "write", "timeout", "bytes"}; wrk's own report still goes to stdout
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

function done(summary, latency, requests)
   local seconds = summary.duration / 1e6
   local e = summary.errors
   local line = string.format(
      '{"requests": %d, "seconds": %.3f, "rps": %.1f, "p50_ms": %.3f, "p99_ms": %.3f, "status_errors": %d, ' ..
      '"connect": %d, "read": %d, "write": %d, "timeout": %d, "bytes": %d}\n',
      summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000,
      latency:percentile(99) / 1000, e.status, e.connect, e.read, e.write, e.timeout, summary.bytes)
   local path = os.getenv("BENCH_OUT")
   if path and path ~= "" then
      local file = assert(io.open(path, "w"))
      file:write(line)
      file:close()
   else
      io.write(line)
   end
end
