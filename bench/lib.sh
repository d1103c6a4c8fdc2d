# bench/lib.sh: the set-up bench/run and bench/storage share (sourced, never run): a temp folder removed on exit, free
# loopback ports, nginx rendered from nginx/render with the two-host upstream of docs/several-hosts.md, frontdoor
# processes on their sockets, and a clean stop of everything started, also on failure or Ctrl-C.
#   bench_start NAME        $work (temp folder), $bin, $python; the EXIT trap; NAME prefixes messages
#   bench_nginx_render      $port/$base (one host, $socket) and $hosts_port/$hosts_base (the upstream over
#                           $hosts_sockets) rendered into $work/nginx; add server.d/*.conf, then bench_nginx_start
#   bench_nginx_keepalive K CEILING_SOCKET   (optional, before bench_nginx_start) $keep_port/$keep_base: $socket and
#                           the C responder through upstreams with `keepalive K` and `fastcgi_keep_conn on`
#   launch, start_app, stop_app, start_hosts, stop_hosts, host_get, host_status, gate_count (below)
# Reads: FRONTDOOR_BIN [.build/release/frontdoor], BENCH_KEEP (keep the temp folder, PostgreSQL's log copied into it
# as postgresql.log), $workers, $config.
# The caller may set $extra_pids (stopped with the rest) and define bench_cleanup (run first at exit).

bench_start() {
  bench_name=$1
  root=$(pwd)
  bin=${FRONTDOOR_BIN:-$root/.build/release/frontdoor}
  python=$root/.venv/bin/python
  [ -x "$bin" ] || { echo "$bench_name: $bin is missing (make build-release)" >&2; exit 1; }
  [ -x "$python" ] || { echo "$bench_name: .venv is missing (scripts/install-deps --with-venv)" >&2; exit 1; }
  work=$(mktemp -d "${TMPDIR:-/tmp}/frontdoor-bench.XXXXXX")
  pg=""   # the PostgreSQL cluster's folder: directly in /tmp (as root the cluster runs as `postgres`, which must reach it)
  app="" hosts="" web="" ceiling="" extra_pids=""
  trap bench_stop EXIT
  trap 'exit 130' INT TERM
}

bench_stop() {
  if declare -F bench_cleanup >/dev/null; then bench_cleanup || true; fi
  for pid in $app $hosts $web $ceiling $extra_pids; do kill "$pid" 2>/dev/null || true; done
  for pid in $app $hosts $web $ceiling $extra_pids; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$pg" ]; then
    scripts/pg-cluster stop "$pg" 2>/dev/null || true
    if [ -n "${BENCH_KEEP:-}" ]; then cp "$pg/log" "$work/postgresql.log" 2>/dev/null || true; fi
    rm -rf "$pg"
  fi
  if [ -n "${BENCH_KEEP:-}" ]; then echo "$bench_name: kept $work" >&2; else rm -rf "$work"; fi
}

say() { echo "$bench_name: $*" >&2; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_until() {  # wait_until WHAT COMMAND...: polls COMMAND for up to 20 s
  local what=$1; shift
  for _ in $(seq 1 200); do "$@" && return 0; sleep 0.1; done
  say "timed out waiting for $what (logs in $work; BENCH_KEEP=1 keeps them)"; exit 1
}
answers() { curl -fs -o /dev/null "$1"; }

bench_nginx_render() {
  port=$(free_port)
  base=http://127.0.0.1:$port
  hosts_port=$(free_port)
  while [ "$hosts_port" = "$port" ]; do hosts_port=$(free_port); done
  hosts_base=http://127.0.0.1:$hosts_port   # the two-host server: nginx/several-hosts.conf's upstream over these sockets
  hosts_sockets=("$work/host-a.sock" "$work/host-b.sock")
  socket=$work/frontdoor.sock
  # nginx: the dev server from nginx/render, access log off.
  nginx/render --base /account --static "$root/static" --socket "$socket" --server "$work/nginx" "$port"
  sed -i 's|^\( *\)access_log .*;|\1access_log off;|' "$work/nginx/nginx.conf"
  # The two-host server, as docs/several-hosts.md tells an operator: the same include rendered with the placeholder
  # socket and pointed at the upstream of nginx/several-hosts.conf (its sockets replaced by this run's), in http { }.
  upstream_include frontdoor "$work/nginx/frontdoor-hosts.conf"
  sed -e "s|unix:/run/frontdoor/a.sock|unix:${hosts_sockets[0]}|" -e "s|unix:/run/frontdoor/b.sock|unix:${hosts_sockets[1]}|" \
    nginx/several-hosts.conf > "$work/nginx/hosts.conf"
  cat >> "$work/nginx/hosts.conf" <<EOF
server {
    listen 127.0.0.1:$hosts_port;
    server_name localhost;
    include $work/nginx/frontdoor-hosts.conf;
}
EOF
  http_include "$work/nginx/hosts.conf"
}

http_include() {  # http_include FILE: FILE included in nginx.conf's http { } (upstreams and servers)
  sed -i "s|^http {\$|http {\n    include $1;|" "$work/nginx/nginx.conf"
  grep -q "include $1;" "$work/nginx/nginx.conf" || { say "cannot include $1 in nginx.conf's http { }"; exit 1; }
}

# upstream_include UPSTREAM OUT [keep]: the operator's include (nginx/render) with the placeholder socket
# /frontdoor-upstream, every fastcgi_pass pointed at the nginx upstream UPSTREAM, as docs/several-hosts.md does it; with
# `keep`, each also gets `fastcgi_keep_conn on;`, without which nginx closes the connection after every request whatever
# the upstream's `keepalive` says. Stops the run if a fastcgi_pass was missed or another fastcgi_keep_conn is there
# (nginx would refuse the duplicate, or the run would measure something else), or if fewer than five are found (the
# pages, BrowserID's support document and the gate at least: what the bench asks).
upstream_include() {
  local name=$1 out=$2 keep=${3:-} plain passes
  plain=$(nginx/render --base /account --static "$root/static" --socket /frontdoor-upstream)
  passes=$(grep -c '^ *fastcgi_pass unix:/frontdoor-upstream;$' <<< "$plain" || true)
  if [ -n "$keep" ]; then
    sed "s|^\( *\)fastcgi_pass unix:/frontdoor-upstream;\$|\1fastcgi_pass $name;\n\1fastcgi_keep_conn on;|" <<< "$plain" > "$out"
  else
    sed "s|^\( *\)fastcgi_pass unix:/frontdoor-upstream;\$|\1fastcgi_pass $name;|" <<< "$plain" > "$out"
  fi
  if [ "$passes" -lt 5 ] || [ "$(grep -c "^ *fastcgi_pass $name;\$" "$out")" != "$passes" ] || grep -q frontdoor-upstream "$out" ||
     { [ -n "$keep" ] && [ "$(grep -c '^ *fastcgi_keep_conn ' "$out")" != "$passes" ]; }; then
    say "cannot point nginx/render's include at the upstream $name${keep:+ with fastcgi_keep_conn on} ($passes fastcgi_pass lines; see $out)"
    exit 1
  fi
}

# bench_nginx_keepalive K CEILING_SOCKET: a third server, on $keep_port ($keep_base), where nginx keeps its FastCGI
# connections open, to frontdoor and to the C responder alike, so the two are compared in the same shape: the include
# pointed at upstream frontdoor_keep (this run's $socket: whichever frontdoor start_app runs) and /ceiling/ at upstream
# ceiling_keep (CEILING_SOCKET), each with `keepalive K` (idle connections each nginx worker keeps) and
# `fastcgi_keep_conn on`. libfcgi serves a kept connection on the thread that accepted it until nginx closes it, so
# nginx's worker_processes × K must stay below frontdoor's --workers, or new connections wait for a thread that never
# comes free (bench/README.md).
bench_nginx_keepalive() {
  local keep=$1 ceiling_socket=$2 nginx_workers
  nginx_workers=$(sed -n 's/^worker_processes \([0-9]*\);$/\1/p' "$work/nginx/nginx.conf")
  [ -n "$nginx_workers" ] || { say "cannot read worker_processes from the rendered nginx.conf"; exit 1; }
  [ $((nginx_workers * keep)) -lt "$workers" ] ||
    { say "nginx's worker_processes ($nginx_workers) × keepalive ($keep) must stay below frontdoor's workers ($workers)"; exit 2; }
  keep_port=$(free_port)
  while [ "$keep_port" = "$port" ] || [ "$keep_port" = "$hosts_port" ]; do keep_port=$(free_port); done
  keep_base=http://127.0.0.1:$keep_port
  upstream_include frontdoor_keep "$work/nginx/frontdoor-keep.conf" keep
  cat > "$work/nginx/keep.conf" <<EOF
upstream frontdoor_keep {
    server unix:$socket;
    keepalive $keep;
}
upstream ceiling_keep {
    server unix:$ceiling_socket;
    keepalive $keep;
}
server {
    listen 127.0.0.1:$keep_port;
    server_name localhost;
    include $work/nginx/frontdoor-keep.conf;
    location ^~ /ceiling/ {
        include fastcgi_params;
        fastcgi_pass ceiling_keep;
        fastcgi_keep_conn on;
    }
}
EOF
  http_include "$work/nginx/keep.conf"
}

bench_nginx_start() {  # bench_nginx_start PROBE_URL: starts nginx and waits until PROBE_URL answers
  nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" -t -q
  nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" </dev/null >"$work/nginx.out" 2>&1 &
  web=$!
  wait_until "nginx" answers "$1"
}

launch() {  # launch SOCKET LOG DATABASE [URL]: frontdoor serve on SOCKET (SQLite file, or the PostgreSQL URL); pid in $launched
  rm -f "$1"
  FRONTDOOR_DATABASE_PATH=$3 FRONTDOOR_DATABASE_URL=${4:-} "$bin" serve --config "$config" --socket "$1" --socket-mode 0666 \
    --workers "$workers" </dev/null >>"$2" 2>&1 &
  launched=$!
  wait_until "the frontdoor socket $1" test -S "$1"
}
start_app() { launch "$socket" "$work/frontdoor.log" "$@"; app=$launched; }   # start_app DATABASE [URL]: on $socket
stop_app() { kill "$app" 2>/dev/null || true; wait "$app" 2>/dev/null || true; app=""; }
start_hosts() {  # start_hosts DATABASE URL: one frontdoor per socket of $hosts_sockets (host-a.log, host-b.log), one database
  local i names=(a b)
  for i in 0 1; do launch "${hosts_sockets[$i]}" "$work/host-${names[$i]}.log" "$@"; hosts="$hosts $launched"; done
}
stop_hosts() {
  local pid
  for pid in $hosts; do kill "$pid" 2>/dev/null || true; done
  for pid in $hosts; do wait "$pid" 2>/dev/null || true; done
  hosts=""
}
# host_get SOCKET PATH [COOKIE]: one GET straight to one frontdoor's socket (cgi-fcgi, not through nginx); its CGI reply.
host_get() {
  env -i REQUEST_METHOD=GET REQUEST_URI="$2" SCRIPT_NAME="$2" QUERY_STRING="" REMOTE_ADDR=127.0.0.1 SERVER_NAME=127.0.0.1 \
    SERVER_PORT="$hosts_port" HTTP_HOST="127.0.0.1:$hosts_port" HTTP_COOKIE="${3:-}" "$(command -v cgi-fcgi)" -bind -connect "$1"
}
host_status() { host_get "$@" | tr -d '\r' | sed -n 's/^Status: \([0-9]*\).*/\1/p'; }   # the reply's Status line's code
# gate_count SOCKET: the gate checks that host let in so far (frontdoor_gate_checks_total{result="allowed"} in its /metrics).
gate_count() {
  host_get "$1" /account/metrics | tr -d '\r' | sed -n 's/^frontdoor_gate_checks_total{result="allowed"} \([0-9]*\)$/\1/p'
}
