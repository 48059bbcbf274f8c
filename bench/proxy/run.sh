#!/usr/bin/env bash
# Forward-proxy benchmark (issue 23): HTTPS through our proxy (App's egress.proxy listener -> Border, on the
# trust chain as run-local.sh runs it), through Debian's Squid (tcp_outgoing_address), and straight to the
# target, in one run, all on loopback, with one client (bench/proxy/ProxyLoad.java) for every path.
#
#   ./mvnw -B -ntp -DskipTests package -pl ydb-embedded,border-service,app-service -am
#   bench/proxy/run.sh            # WARMUP=30 DURATION=20 CONC=8 HOLD=1000 ROUNDS=2; ROWS="direct squid egress"
#
# Target: nginx on 127.0.0.1:29443 (PORT_BASE + 443) with its own throwaway certificate (openssl, EC P-256, not the platform's
# CA), one worker, nginx 1.22's default protocols (TLS 1.2 here; with TLS 1.3 the JDK client's close of a direct
# connection waited ~35 ms for nginx, which only penalised the direct row). Paths: Squid leaves from 127.0.0.2, our proxy from acme's dedicated 127.0.0.3, direct from
# 127.0.0.1 (the probe line shows what the target saw). (a) and (b) alternate the paths for ROUNDS rounds, so
# that a drift in machine load hits every path; the goals compare the means over the rounds. Per path:
#   (a) tunnels: new tunnel + TLS handshake + GET / + close, CONC threads, DURATION s: tunnels/s, connect p50/p99
#       (CONNECT sent -> 200 read; direct: TCP connect), whole connection p50/p99, CPU per tunnel per process
#   (b) keepalive: one tunnel, GET / back to back for DURATION s: req/s, p50/p99
#   (c) 100 MB: download (GET of a 100 MiB file) and upload (POST of 100 MiB, nginx reads it all before it
#       answers), one new tunnel each, 3 times: median MB/s (10^6 bytes); CPU per 100 MiB
#   (d) HOLD tunnels open at once (each proven by one GET), held 10 s: RSS of App, Border, Squid; survivors
# Needs nginx, squid, curl, openssl (apt-get install -y nginx-light squid curl openssl) and the jars.
#   (e) TUNNELS (10,000) new tunnels as in (a) through our proxy from CONC threads: how many failed (issue 36)
# PARTS="a b" runs only those parts (default "a b c d"; "e" on request).
# PROFILE=/path/libasyncProfiler.so: CPU profiles (collapsed stacks) of App and the Border during the egress
# rows of (a) and (c) into the work directory; PROFILE_EVENT=alloc profiles allocations instead (bytes per
# stack) of CPU (default itimer,interval=1ms). Every process is stopped at exit (by pid).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/bench/lib/common.sh"
need_tools nginx curl openssl java
[[ " ${ROWS:-direct squid egress} " != *" squid "* ]] || need_tools squid
make_work proxy-bench
WARMUP=${WARMUP:-30}; DURATION=${DURATION:-20}; CONC=${CONC:-8}; HOLD=${HOLD:-1000}
ROWS=${ROWS:-"direct squid egress"}; ROUNDS=${ROUNDS:-2}; PARTS=${PARTS:-"a b c d"}; TUNNELS=${TUNNELS:-10000}
B=${PORT_BASE:-29000}   # fixed ports below the ephemeral range; PORT_BASE=... moves them all
TARGET=$((B + 443)); TARGET_PLAIN=$((B + 480)); SQUID=$((B + 128)); COORD=$((B + 136)); BORDER=$((B + 181))
APP=$((B + 80)); PROXY=$((B + 129))
for port in $TARGET $TARGET_PLAIN $SQUID $COORD $BORDER $APP $PROXY; do
  # Tests elsewhere on this machine pick free ports in the same range: a taken one fails the run at once.
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "port $port is in use on 127.0.0.1 (ss -ltnp); pick other ports with PORT_BASE=<base>" >&2; exit 1
  fi
done
SQUID_IP=127.0.0.2; EGRESS_IP=127.0.0.3
HZ=$(getconf CLK_TCK)
MIB100=104857600

# Our row needs App with the proxy listener (issue 23) in the jars; the others need no jar at all.
# (grep without -q: with pipefail, an early exit of grep fails the pipeline through SIGPIPE)
has_proxy() { [[ -f $APP_JAR ]] && unzip -l "$APP_JAR" 2>/dev/null | grep 'dev/egress/app/proxy/' >/dev/null; }
if [[ " $ROWS " == *" egress "* ]]; then
  need_jars "$APP_JAR" "$BORDER_JAR" "$COORD_JAR"
  has_proxy || { echo "$APP_JAR has no forward proxy (dev.egress.app.proxy): rebuild, or ROWS=\"direct squid\"" >&2; exit 1; }
fi

# ---- the target: nginx over TLS with its own certificate ------------------------------------------------------
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=bench-target \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$WORK/target-key.pem" -out "$WORK/target.pem" 2>"$WORK/openssl.log"
head -c "$MIB100" /dev/zero > "$WORK/100m.bin"
mkdir -p "$WORK/nginx-body"
cat > "$WORK/target.conf" <<NGINX
worker_processes 1;
daemon off;
pid $WORK/target.pid;
error_log $WORK/target-error.log warn;
events { worker_connections 8192; }
http {
  access_log off;
  client_body_temp_path $WORK/nginx-body;
  keepalive_requests 10000000;
  keepalive_timeout 300s;
  server {
    listen 127.0.0.1:$TARGET ssl reuseport backlog=4096;
    ssl_certificate $WORK/target.pem;
    ssl_certificate_key $WORK/target-key.pem;
    location / { default_type application/json; return 200 '{"ok":true}'; }
    location = /whoami { default_type text/plain; return 200 "\$remote_addr"; }
    location = /100m { alias $WORK/100m.bin; }
    # The whole body is read (into memory) before the request goes on, so the answer marks its end.
    location = /upload {
      client_max_body_size 0; client_body_buffer_size 110m;
      proxy_pass http://127.0.0.1:$TARGET_PLAIN/; proxy_pass_request_body off; proxy_set_header Content-Length "";
    }
  }
  server {
    listen 127.0.0.1:$TARGET_PLAIN;
    location / { default_type application/json; return 200 '{"ok":true}'; }
  }
}
NGINX
nginx -c "$WORK/target.conf" -p "$WORK" & PIDS+=($!)
TARGET_MASTER=$!
wait_http "http://127.0.0.1:$TARGET_PLAIN/"
TARGET_PIDS="$TARGET_MASTER $(pgrep -P "$TARGET_MASTER" | tr '\n' ' ')"

# ---- the proxies ------------------------------------------------------------------------------------------
SQUID_PID=""
if [[ " $ROWS " == *" squid "* ]]; then
  start_squid "$SQUID" "$SQUID_IP" "$TARGET_PLAIN"
  SQUID_PID=$(cat "$WORK/squid.pid")
fi
if [[ " $ROWS " == *" egress "* ]]; then
  # The Border's certificate names the IP it announces (IP SAN), or App would not route it.
  java "$ROOT/local/LocalPki.java" "$WORK/pki" "border-p=uri:spiffe://egress.local/border/border-p,ip:127.0.0.1,dns:localhost,ip:$EGRESS_IP" \
    "app-p=uri:spiffe://egress.local/app/app-p" > "$WORK/pki.log" 2>&1 || { cat "$WORK/pki.log" >&2; exit 1; }
  start_coord "$COORD"
  # The run-local.sh / mtls.sh default: Border on https, signed announcements, App -> Border mutual TLS.
  # The tunnel limits (App per tenant and per IP, the Border per IP) are raised for (d); the rest is default.
  start_border_tls border-p "$BORDER" "$EGRESS_IP" "$COORD" --egress.tunnel.max-per-ip=4096 \
    --egress.tunnel.allowed-ports="$TARGET"  # the target is not on 443 or 80 (the default CONNECT ports)
  printf 'sharedPool: []\ntenants:\n  - id: acme\n    dedicatedIps: [%s]\n' "$EGRESS_IP" > "$WORK/tenants.yaml"
  start_app_tls p "$APP" "$WORK/tenants.yaml" "$COORD" --egress.proxy.enabled=true \
    --egress.proxy.address=127.0.0.1 --egress.proxy.port="$PROXY" \
    --egress.proxy.max-tunnels-per-tenant=4096 --egress.proxy.max-tunnels-per-ip=4096 --egress.proxy.allowed-ports="$TARGET"
  wait_ready "https://127.0.0.1:$BORDER"
  wait_ready "http://127.0.0.1:$APP"
  wait_tenant_available "http://127.0.0.1:$APP" acme
fi

# ---- the client -------------------------------------------------------------------------------------------
mkdir -p "$WORK/client"
javac -d "$WORK/client" "$ROOT/bench/proxy/ProxyLoad.java"
CLIENT_OPTS=(-Xmx1g -XX:+UseParallelGC)
client() { # row mode [key=value...] : runs ProxyLoad for that row, in the background; CLIENT_PID
  local row=$1 mode=$2 via=()
  shift 2
  case $row in
    squid) via=("proxy=127.0.0.1:$SQUID") ;;
    egress) via=("proxy=127.0.0.1:$PROXY" "auth=acme:$APP_TOKEN") ;;
  esac
  java "${CLIENT_OPTS[@]}" -cp "$WORK/client" ProxyLoad "$mode" "target=127.0.0.1:$TARGET" "ca=$WORK/target.pem" \
    "${via[@]}" "$@" > "$WORK/client.out" 2> "$WORK/client.err" &
  CLIENT_PID=$!
}
run_client() { client "$@"; wait "$CLIENT_PID" || { cat "$WORK/client.err" >&2; exit 1; }; cat "$WORK/client.out"; }
field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$2"; }

ticks() { # pid... -> utime+stime of each pid summed, in clock ticks (all its threads)
  local t=0 p
  for p in "$@"; do
    [[ $p =~ ^[0-9]+$ && -r /proc/$p/stat ]] && t=$(( t + $(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$p/stat") ))
  done
  echo "$t"
}
proxy_pids() { # row -> the pids of the proxy processes of that row
  case $1 in squid) echo "$SQUID_PID" ;; egress) echo "$APP_PID $BORDER_PID" ;; *) echo "" ;; esac
}
wait_phase() { # name : until the client's output has "phase=<name>" (or it exited)
  until grep -q "^phase=$1" "$WORK/client.out"; do
    kill -0 "$CLIENT_PID" 2>/dev/null || return 0
    sleep 0.05
  done
}
measured() { # row mode [key=value...] : runs the client; D_PROXY D_APP D_BORDER D_TARGET = CPU ticks of the
  # measured part (between its phase lines), OUT = its result line; PROFILE_TAG set: profiled meanwhile
  local row=$1 pids p0 a0 b0 t0
  pids=$(proxy_pids "$row")
  client "$@"
  wait_phase measure
  # shellcheck disable=SC2086
  p0=$(ticks $pids); a0=$(ticks "${APP_PID:-}"); b0=$(ticks "${BORDER_PID:-}"); t0=$(ticks $TARGET_PIDS)
  [[ $row == egress && -n ${PROFILE_TAG:-} ]] && profile start
  wait_phase done
  # shellcheck disable=SC2086
  D_PROXY=$(( $(ticks $pids) - p0 )); D_APP=$(( $(ticks "${APP_PID:-}") - a0 ))
  D_BORDER=$(( $(ticks "${BORDER_PID:-}") - b0 )); D_TARGET=$(( $(ticks $TARGET_PIDS) - t0 ))
  [[ $row == egress && -n ${PROFILE_TAG:-} ]] && profile stop "$PROFILE_TAG"
  wait "$CLIENT_PID" || { cat "$WORK/client.err" >&2; exit 1; }
  OUT=$(grep -v '^phase=' "$WORK/client.out")
  RUN=$(( ${RUN:-0} + 1 )); cp "$WORK/client.out" "$WORK/raw-$RUN-$row-$2.out"   # the raw figures, kept
}
profile() { # start|stop tag : async-profiler in App and the Border (PROFILE=libasyncProfiler.so)
  [[ -n ${PROFILE:-} && " $ROWS " == *" egress "* ]] || return 0
  local pid name
  for name in app border; do
    pid=$APP_PID; [[ $name == border ]] && pid=$BORDER_PID
    if [[ $1 == start ]]; then
      jcmd "$pid" JVMTI.agent_load "$PROFILE" "\"start,event=${PROFILE_EVENT:-itimer,interval=1ms}\"" >/dev/null
    else
      # Allocation profiles count bytes (total), CPU profiles samples.
      jcmd "$pid" JVMTI.agent_load "$PROFILE" \
        "\"stop,file=$WORK/$name-$2.collapsed,collapsed$([[ ${PROFILE_EVENT:-} == alloc* ]] && echo ,total)\"" >/dev/null
    fi
  done
}

# ---- what runs -------------------------------------------------------------------------------------------
echo "== forward-proxy benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(load_avg)"
echo "JVM: $(java -version 2>&1 | sed -n '1p;2p' | paste -sd' ')"
if [[ " $ROWS " == *" egress "* ]]; then
  for part in App:$APP_PID Border:$BORDER_PID; do
    echo "${part%%:*} JVM options: $(ps -o args= -p "${part#*:}" | sed 's/ -jar .*//' | cut -d' ' -f2-)"
  done
  if unzip -l "$APP_JAR" | grep 'netty-tcnative' >/dev/null; then
    echo "TLS provider (App, Border): netty-tcnative in the jars; $(grep -hiEo 'openssl[^,;]{0,60}' "$WORK"/app-p.log | head -1)"
  else
    echo "TLS provider (App, Border): the JDK's (SunJSSE; no netty-tcnative in the jars)"
  fi
fi
echo "client: ProxyLoad on the same JVM, ${CLIENT_OPTS[*]}, JDK TLS, one SSLContext (session resumption as the JDK does it)"
echo "squid: $(squid -v | head -1); target: $(nginx -v 2>&1), 1 worker, EC P-256 certificate, nginx default protocols"
for row in $ROWS; do
  # A tunnel right after start-up may still be refused (App's link to the Border not up yet): retry a while.
  for _ in $(seq 1 30); do probe=$(run_client "$row" probe 2>/dev/null) && break; sleep 2; done
  printf '%-7s %s\n' "$row" "${probe:-$(cat "$WORK/client.err")}"
done

if [[ " $ROWS " == *" egress "* ]]; then
  echo "warm-up ${WARMUP}s through our proxy (JIT), 5s through squid (load $(load_avg))"
  run_client egress tunnels conc="$CONC" warmup=0 seconds=$(( WARMUP * 2 / 3 )) > /dev/null
  run_client egress keepalive warmup=0 seconds=$(( WARMUP / 3 )) > /dev/null
  [[ " $PARTS " != *" c "* ]] || run_client egress download repeat=1 > /dev/null
fi
[[ " $ROWS " == *" squid "* ]] && run_client squid tunnels conc="$CONC" warmup=0 seconds=5 > /dev/null

declare -A RESULT COUNT
add() { # key value : sums values per key, for the means the goals compare
  [[ -n $2 ]] || return 0
  RESULT[$1]=$(awk -v a="${RESULT[$1]:-0}" -v b="$2" 'BEGIN { print a + b }'); COUNT[$1]=$(( ${COUNT[$1]:-0} + 1 ))
}
mean() { [[ -n ${COUNT[$1]:-} ]] && awk -v s="${RESULT[$1]}" -v n="${COUNT[$1]}" 'BEGIN { printf "%.2f", s / n }' || true; }
cpu() { awk -v d="$1" -v n="$n" -v hz="$HZ" 'BEGIN { printf "%.0f", d * 1e6 / hz / n }'; }  # ticks -> µs per one of n
if [[ " $PARTS " == *" a "* ]]; then
echo
echo "== (a) new tunnel + TLS handshake + one GET per connection: $CONC threads, ${DURATION}s"
printf '%-7s %9s %9s %8s %8s %9s %9s %7s %11s %11s %11s %6s %s\n' path tunnels tunnels/s conn-p50 conn-p99 \
  total-p50 total-p99 errors 'proxy µs/t' 'target µs/t' 'client µs/t' load '(latencies in ms; CPU µs per tunnel)'
for round in $(seq 1 "$ROUNDS"); do [[ $ROUNDS == 1 ]] || echo "-- round $round"; for row in $ROWS; do
  PROFILE_TAG=""; [[ $round == "$ROUNDS" ]] && PROFILE_TAG=tunnels
  measured "$row" tunnels conc="$CONC" warmup=5 seconds="$DURATION"
  out=$OUT; n=$(field tunnels "$out")
  add a_rate_"$row" "$(field rate "$out")"; add a_p99_"$row" "$(field connect_p99_ms "$out")"
  case $row in  # CPU per tunnel of the proxy's processes (ours: App + Border), for issue 36's goal
    squid) add a_cpu_squid "$(cpu "$D_PROXY")" ;;
    egress) add a_cpu_egress "$(cpu $(( D_APP + D_BORDER )))" ;;
  esac
  printf '%-7s %9s %9s %8s %8s %9s %9s %7s %11s %11s %11s %6s %s\n' "$row" "$n" "$(field rate "$out")" \
    "$(field connect_p50_ms "$out")" "$(field connect_p99_ms "$out")" "$(field total_p50_ms "$out")" \
    "$(field total_p99_ms "$out")" "$(field errors "$out")" "$(cpu "$D_PROXY")" "$(cpu "$D_TARGET")" \
    "$(awk -v c="$(field cpu_ms "$out")" -v n="$n" 'BEGIN { printf "%.0f", c * 1000 / n }')" \
    "$(load_avg | cut -d' ' -f1)" "$([[ $row == egress ]] && echo "App $(cpu "$D_APP") + Border $(cpu "$D_BORDER")")"
  grep -o 'first_errors=.*' <<<"$out" || true
  sleep "${PAUSE:-5}"
done; done
fi

if [[ " $PARTS " == *" b "* ]]; then
echo
echo "== (b) one tunnel, keep-alive GET / back to back, ${DURATION}s"
printf '%-7s %9s %9s %8s %8s %11s %6s\n' path requests req/s p50-ms p99-ms 'proxy µs/rq' load
for round in $(seq 1 "$ROUNDS"); do [[ $ROUNDS == 1 ]] || echo "-- round $round"; for row in $ROWS; do
  measured "$row" keepalive warmup=5 seconds="$DURATION"; out=$OUT
  add b_rate_"$row" "$(field rate "$out")"
  n=$(field requests "$out")
  printf '%-7s %9s %9s %8s %8s %11s %6s\n' "$row" "$n" "$(field rate "$out")" \
    "$(field p50_ms "$out")" "$(field p99_ms "$out")" "$(cpu "$D_PROXY")" "$(load_avg | cut -d' ' -f1)"
done; done
fi

if [[ " $PARTS " == *" c "* ]]; then
echo
echo "== (c) a 100 MiB body through one new tunnel, 3 times each way (median MB/s, 10^6 B/s; CPU ms per 100 MiB)"
printf '%-7s %-9s %9s %-16s %13s %s\n' path direction 'MB/s' runs 'proxy ms/body' load
for row in $ROWS; do
  for dir in download upload; do
    PROFILE_TAG=""; [[ $dir == download ]] && PROFILE_TAG=download
    measured "$row" "$dir" repeat=3; out=$OUT
    add c_"${dir}"_"$row" "$(field median_mb_s "$out")"
    printf '%-7s %-9s %9s %-16s %13s %s\n' "$row" "$dir" "$(field median_mb_s "$out")" "$(field runs_mb_s "$out")" \
      "$(awk -v d="$D_PROXY" -v hz="$HZ" 'BEGIN { printf "%.0f", d * 1000 / hz / 3 }')" "$(load_avg | cut -d' ' -f1)"
  done
done
fi

if [[ " $PARTS " == *" d "* ]]; then
echo
echo "== (d) $HOLD tunnels open at once (each proven by one GET), held 10s, then each used once more"
printf '%-7s %6s %6s %7s %-42s %-42s %s\n' path held failed open-s 'RSS before (MB)' 'RSS while held (MB)' 'alive after'
rss_of() { # row
  case $1 in
    squid) echo "squid $(rss_mb "$SQUID_PID")" ;;
    egress) echo "App $(rss_mb "$APP_PID"), Border $(rss_mb "$BORDER_PID")" ;;
    *) echo "-" ;;
  esac
}
for row in $ROWS; do
  [[ $row == direct ]] && continue
  before=$(rss_of "$row")
  client "$row" hold n="$HOLD" conc=32 seconds=10
  for _ in $(seq 1 600); do grep -q '^held=' "$WORK/client.out" && break; sleep 0.2; done
  sleep 3   # the hold has settled (no handshake in flight)
  held_rss=$(rss_of "$row"); established=$(ss -Htn state established "( sport = :$TARGET )" | wc -l)
  wait "$CLIENT_PID" || { cat "$WORK/client.err" >&2; exit 1; }
  out=$(cat "$WORK/client.out")
  printf '%-7s %6s %6s %7s %-42s %-42s %s\n' "$row" "$(field held "$out")" "$(field failed "$out")" \
    "$(field open_s "$out")" "$before" "$held_rss" "$(field alive_after_hold "$out") of $(field of "$out") (target saw $established)"
  grep -o 'first_error=.*' <<<"$out" || true
done
fi

goal() { # label ours reference factor higher|lower
  awk -v l="$1" -v o="$2" -v r="$3" -v f="$4" -v dir="$5" 'BEGIN {
    if (o == "" || r == "") { printf "%-52s n/a\n", l; exit }
    met = dir == "higher" ? (o >= f * r) : (o <= f * r)
    printf "%-52s %s: %s vs %s%s (%.2fx)\n", l, met ? "MET" : "MISSED", o, (f == 1 ? "" : f " x "), r, o / r }'
}
if [[ " $PARTS " == *" e "* && " $ROWS " == *" egress "* ]]; then
echo
echo "== (e) $TUNNELS new tunnels (+ TLS + one GET) through our proxy from $CONC threads: any that fails after the proxy took it counts"
measured egress tunnels conc="$CONC" warmup=0 seconds=3600 count="$TUNNELS"; out=$OUT; n=$(field tunnels "$out")
printf '%-7s %9s %7s %9s %8s %8s %s\n' path tunnels failed tunnels/s conn-p50 conn-p99 load
printf '%-7s %9s %7s %9s %8s %8s %s\n' egress "$n" "$(field errors "$out")" "$(field rate "$out")" \
  "$(field connect_p50_ms "$out")" "$(field connect_p99_ms "$out")" "$(load_avg | cut -d' ' -f1)"
grep -o 'first_errors=.*' <<<"$out" || true
add e_failed "$(field errors "$out")"
fi

echo
echo "== goals (issue 36), means over the rounds"
if [[ " $ROWS " == *" egress "* && " $ROWS " == *" squid "* ]]; then
  goal "(a) tunnels/s >= squid" "$(mean a_rate_egress)" "$(mean a_rate_squid)" 1 higher
  goal "(a) p99 connect <= 2 x squid (ms)" "$(mean a_p99_egress)" "$(mean a_p99_squid)" 2 lower
  goal "(a) CPU per tunnel, App + Border <= 2 x squid (µs)" "$(mean a_cpu_egress)" "$(mean a_cpu_squid)" 2 lower
  goal "(b) keep-alive req/s >= squid" "$(mean b_rate_egress)" "$(mean b_rate_squid)" 1 higher
fi
if [[ -n ${COUNT[e_failed]:-} ]]; then
  awk -v f="$(mean e_failed)" -v n="$TUNNELS" 'BEGIN { printf "%-52s %s: %d of %d\n", "(e) failed tunnels == 0", f == 0 ? "MET" : "MISSED", f, n }'
fi
echo
echo "== goals (issue 23), means over the rounds"
if [[ " $ROWS " == *" egress "* && " $ROWS " == *" direct "* ]]; then
  goal "(b) keep-alive req/s >= 0.8 x direct" "$(mean b_rate_egress)" "$(mean b_rate_direct)" 0.8 higher
  goal "(c) download MB/s >= 0.8 x direct" "$(mean c_download_egress)" "$(mean c_download_direct)" 0.8 higher
  goal "(c) upload MB/s >= 0.8 x direct" "$(mean c_upload_egress)" "$(mean c_upload_direct)" 0.8 higher
fi
echo "load average at end: $(load_avg); logs and client output: $WORK"
[[ -n ${PROFILE:-} ]] && ls "$WORK"/*.collapsed 2>/dev/null || true
