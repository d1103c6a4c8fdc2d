"""bench/storage_table.py: bench/storage's results (one JSON object a line) as one markdown table, each figure next to
the issue's target for it.
  storage_table.py RESULTS.jsonl MACHINE
"""
import json
import statistics
import sys


def statuses(counter):
    return ", ".join(f"{k}: {v:,}" for k, v in sorted(counter.items(), key=lambda kv: str(kv[0]))) or "none"


def fivexx(counter):
    return sum(v for k, v in counter.items() if str(k).isdigit() and 500 <= int(k) < 600)


def stuffing(r, row):
    s, g = r["stuff"], r["gate"]
    wrong = sum(s["statuses"].values())
    person = s["person"]
    codes = {}
    for status, _ in person:
        codes[status] = codes.get(status, 0) + 1
    times = [t for _, t in person]
    five = fivexx(s["statuses"]) + fivexx(codes)
    from_nginx = s["statuses"].get("502", 0)  # nginx's own: the upstream refused the connection, or had no live host
    row("credential stuffing", f"wrong sign-ins ({s['clients']} addresses, {s['seconds']:.0f} s): answered by frontdoor",
        f"{wrong - from_nginx:,} ({(wrong - from_nginx) / s['seconds']:,.1f}/s)", "–")
    row("credential stuffing", "wrong sign-ins: every answer; client errors",
        f"{statuses(s['statuses'])} ({wrong / s['seconds']:,.0f}/s); {statuses(s['errors'])}", "–")
    if "nginx_refused" in r:
        row("credential stuffing", "nginx: connect() to a host refused (EAGAIN: its backlog full) / a host taken out "
            "(max_fails, for 10 s) / seconds with no live host", f"{r['nginx_refused']} / {r['nginx_disabled']} / {r['nginx_dead_seconds']}", "0 / 0 / 0")
    row("credential stuffing", "addresses blocked / signInFailure rows at the end", f"{r['blocked']} / {r['failures']:,}", "–")
    row("credential stuffing", "legitimate sign-ins (one a second): answers", statuses(codes), "every one 303")
    if times:
        row("credential stuffing", "legitimate sign-ins: median / max s", f"{statistics.median(times):.2f} / {max(times):.2f}",
            "median ≤ 2 s, none over 10 s")
    row("credential stuffing", "gate (wrk -c4): req/s, p50 / p99 ms",
        f"{g['rps']:,.0f}; {g['p50_ms']:.2f} / {g['p99_ms']:.2f}; non-2xx {g['status_errors']}, socket errors "
        f"{g['connect'] + g['read'] + g['write'] + g['timeout']}", "p99 < 20 ms")
    row("credential stuffing", "5xx anywhere (stuffing, person; the gate's non-2xx above)", f"{five}", "0")
    row("credential stuffing", "hosts' 'storage unavailable' log lines", f"{r['unavailable_lines']}", "0")
    row("credential stuffing", "pg_stat_database.deadlocks delta / 'deadlock detected' lines",
        f"{r['deadlocks']} / {r['deadlock_lines']}", "0")


def mixed(r, row):
    m = r["mixed"]
    for kind in ("password", "social", "residence"):
        c = m["counts"][kind]
        total = sum(c.values())
        row("mixed sign-ins", f"{kind} sign-ins: answers ({total / m['seconds']:,.1f}/s)", statuses(c), "no 5xx")
    row("mixed sign-ins", "expired sessions seeded / left unpurged at the end",
        f"{m['counts']['expired_seeded'].get('rows', 0):,} / {r['expired_left']:,}", "–")
    row("mixed sign-ins", "pg_stat_database.deadlocks delta / 'deadlock detected' lines", f"{r['deadlocks']} / {r['deadlock_lines']}", "0")
    if r.get("in_deadlocks"):
        row("mixed sign-ins", "statements in the deadlock reports (in how many)",
            "; ".join(f"`{statement}` {n}" for statement, n in r["in_deadlocks"]), "–")
    row("mixed sign-ins", "lock waits over deadlock_timeout (1 s) logged by PostgreSQL", f"{r['wait_lines']}", "–")
    row("mixed sign-ins", "hosts' log lines with deadlock/conflict/retry", f"{r['host_lines']}", "0 retries")
    row("mixed sign-ins", "hosts' 'storage unavailable' lines (of them statement timeouts)",
        f"{r['unavailable_lines']} ({r['timeout_lines']})", "0")


def ceiling(r, row):
    w, locks = r["wrk"], r["locks"]
    where = "unix socket" if r["leg"] == "socket" else "TCP + delay"
    name = f"sign-in ceiling, {r['hosts']} host{'s' if r['hosts'] > 1 else ''}, PostgreSQL on {where}"
    errors = w["status_errors"] + w["connect"] + w["read"] + w["write"] + w["timeout"]
    if "round_trips" in r:
        socket_ms, tcp_ms = r["round_trips"].split("/")
        row(name, "`SELECT 1` round trip, ms (idle, before the run)", socket_ms if r["leg"] == "socket" else tcp_ms, "–")
    row(name, "sign-ins/s (steady), p50 / p99 ms, errors",
        f"{w['steady_rps']:,.1f}; {w['p50_ms']:,.0f} / {w['p99_ms']:,.0f}; {errors}", "–")
    per = locks["row_waits"] / w["requests"] if w["requests"] else 0
    row(name, "lock waits seen (10 ms samples): all / on rows; row waits per sign-in",
        f"{locks['waits']} / {locks['row_waits']}; {per:.3f} ({w['requests']:,} sign-ins, {locks['samples']:,} samples)",
        "no wait on a row another sign-in holds")
    if locks["top"]:
        top = locks["top"][0]
        row(name, "most seen wait: lock, waiting statement ← held by",
            f"{top['locktype']} ×{top['count']}: `{top['waiting']}` ← `{top['held_by'][:70]}`", "–")
    row(name, "lock waits over 10 ms logged by PostgreSQL (log_lock_waits)", f"{r['wait_lines']}", "–")
    if "deadlocks" in r:
        row(name, "pg_stat_database.deadlocks delta", f"{r['deadlocks']}", "0")


def main(path, machine):
    print(f"Machine: {machine}.\n")
    print("| scenario | figure | value | target |")
    print("|---|---|---|---|")
    row = lambda *cells: print("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    for line in open(path):
        r = json.loads(line)
        {"stuffing": stuffing, "mixed": mixed, "ceiling": ceiling}[r["scenario"]](r, row)


if __name__ == "__main__":
    main(*sys.argv[1:])
