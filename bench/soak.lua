-- soak.lua: one kind of request of the soak (Tests/e2e/test_soak.py runs one wrk per kind, all at once), with
-- the answer it must get; every other answer is counted as unexpected (wrk itself only counts non-2xx/3xx).
--
-- Options (environment):
--   SOAK_METHOD     GET (default) or POST
--   SOAK_BODY       request body (POST; sent as application/x-www-form-urlencoded)
--   SOAK_COOKIE     Cookie header, if any
--   SOAK_EXPECT     the status every answer must have (default 200)
--   SOAK_CONTAINS   text every answer's body must contain (plain text, not a pattern), if any
--   SOAK_OUT        file the JSON summary goes to: {"requests", "seconds", "rps", "p50_ms", "p99_ms", "max_ms",
--                   "status_errors", "connect", "read", "write", "timeout", "expected", "unexpected", "samples"};
--                   "samples" lists the first few unexpected answers as "status: start of the body"
wrk.method = os.getenv("SOAK_METHOD") or "GET"
local body = os.getenv("SOAK_BODY")
if body and body ~= "" then
   wrk.body = body
   wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
end
local cookie = os.getenv("SOAK_COOKIE")
if cookie and cookie ~= "" then
   wrk.headers["Cookie"] = cookie
end
local expect = tonumber(os.getenv("SOAK_EXPECT") or "200")
local contains = os.getenv("SOAK_CONTAINS")
if contains == "" then contains = nil end

local threads = {}
function setup(thread)
   table.insert(threads, thread)
end

-- Globals of each thread's Lua state, read back in done() with thread:get.
expected = 0
unexpected = 0
samples = ""

function response(status, headers, answer)
   if status == expect and (contains == nil or (answer and string.find(answer, contains, 1, true))) then
      expected = expected + 1
   else
      unexpected = unexpected + 1
      if unexpected <= 3 then
         local start = string.sub(answer or "", 1, 80):gsub("[%c\"\\]", " ")
         samples = samples .. (samples == "" and "" or ", ") .. '"' .. status .. ": " .. start .. '"'
      end
   end
end

function done(summary, latency, requests)
   local good, bad, seen = 0, 0, {}
   for _, thread in ipairs(threads) do
      good = good + (thread:get("expected") or 0)
      bad = bad + (thread:get("unexpected") or 0)
      local sample = thread:get("samples")
      if sample and sample ~= "" then seen[#seen + 1] = sample end
   end
   local seconds = summary.duration / 1e6
   local e = summary.errors
   local line = string.format(
      '{"requests": %d, "seconds": %.3f, "rps": %.2f, "p50_ms": %.3f, "p99_ms": %.3f, "max_ms": %.3f, ' ..
      '"status_errors": %d, "connect": %d, "read": %d, "write": %d, "timeout": %d, "expected": %d, "unexpected": %d, ' ..
      '"samples": [%s]}\n',
      summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
      latency.max / 1000, e.status, e.connect, e.read, e.write, e.timeout, good, bad, table.concat(seen, ", "))
   local path = os.getenv("SOAK_OUT")
   if path and path ~= "" then
      local file = assert(io.open(path, "w"))
      file:write(line)
      file:close()
   else
      io.write(line)
   end
end
