#!/usr/bin/env bash
# Runs the whole egress platform on this machine, on loopback only:
#   ydb-embedded           127.0.0.1:2136  (YDB-protocol node, database /local: coordination in memory, tables
#                                           kept in .run-local/ydb-data; delete that directory to start clean)
#   border-a               127.0.0.1:8181  dedicated IPs 127.0.0.2, 127.0.0.3
#   border-b               127.0.0.1:8182  dedicated IPs 127.0.0.4, 127.0.0.5 (+ spare 127.0.0.6)
#   app                    127.0.0.1:8080  dispatch API, tenants from local/tenants.yaml; durable delivery
#                                          (Prefer: respond-async) with its store in the node's tables; acme signs
#                                          (Standard Webhooks, secret in local/signing-secrets.yaml)
#                          127.0.0.1:3128  forward proxy (CONNECT tunnels, Proxy-Authorization Basic tenant:token)
#   demo sink              127.0.0.1:9999  prints every webhook with the source IP it came from
#                                          (DEMO_SINK_FAIL_FIRST=N: answers the first N requests 503)
# Borders serve https and sign their announcements; App calls them over mutual TLS. The certificates come
# from a throwaway local CA made at every start with the JDK's keytool (local/LocalPki.java) in
# .run-local/pki/. The coordination node stays anonymous, like local YDB.
#
# Usage: ./run-local.sh [--rebuild] [--smoke] [--help]
#        ./run-local.sh stop|start|restart border-a|border-b   (while the platform runs)
# Needs only a JDK 17+ and curl. Logs go to .run-local/logs/<part>.log. Ctrl-C stops everything.
# Written for bash 3.2+ (macOS's /bin/bash included): no associative arrays, no `wait -n`.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"

RUN_DIR="$ROOT/.run-local"
YDB_DATA_DIR="$RUN_DIR/ydb-data"
LOG_DIR="$RUN_DIR/logs"
PKI_DIR="$RUN_DIR/pki"

# Settings shared by the services go to them as environment variables, so a value the user already
# exported wins (EGRESS_ROUTING_STRATEGY=round-robin ./run-local.sh); the per-part layout below (ids,
# ports, IPs) is the fixed local contract and is passed as arguments.
# Local-only credentials. They protect nothing outside this machine and must never be reused.
export EGRESS_SECURITY_APITOKENS="${EGRESS_SECURITY_APITOKENS:-local-dev-token}"
export EGRESS_SECURITY_INTERNALTOKEN="${EGRESS_SECURITY_INTERNALTOKEN:-local-internal-token}"
export EGRESS_SECURITY_OPERATORTOKEN="${EGRESS_SECURITY_OPERATORTOKEN:-local-operator-token}"
# Only the demo sink's port on 127.0.0.1 is a valid webhook target locally.
export EGRESS_SSRF_ALLOWEDRANGES="${EGRESS_SSRF_ALLOWEDRANGES:-127.0.0.1/32:9999}"
# Tunnels go to 443 and 80 by default; the demo sink's port is added (App's proxy and the Borders' tunnels).
export EGRESS_PROXY_ALLOWEDPORTS="${EGRESS_PROXY_ALLOWEDPORTS:-9999}"
export EGRESS_TUNNEL_ALLOWEDPORTS="${EGRESS_TUNNEL_ALLOWEDPORTS:-9999}"
export SPRINGDOC_SWAGGERUI_ENABLED="${SPRINGDOC_SWAGGERUI_ENABLED:-true}"
API_TOKEN="${EGRESS_SECURITY_APITOKENS%%,*}"
INTERNAL_TOKEN="$EGRESS_SECURITY_INTERNALTOKEN"
OPERATOR_TOKEN="$EGRESS_SECURITY_OPERATORTOKEN"

COORD_PORT=2136
APP_PORT=8080
PROXY_PORT=3128
BORDER_A_PORT=8181
BORDER_B_PORT=8182
SINK_PORT=9999
REGISTRY="grpc://127.0.0.1:${COORD_PORT}/local"
TENANTS_FILE="$ROOT/local/tenants.yaml"
SIGNING_SECRETS_FILE="$ROOT/local/signing-secrets.yaml"
# Durable delivery's store: the node's tables, on the registry's database. Set
# EGRESS_DELIVERY_STORE_CONNECTIONSTRING= (empty) to run App without it (Prefer: respond-async is then ignored).
DELIVERY_STORE="${EGRESS_DELIVERY_STORE_CONNECTIONSTRING-$REGISTRY}"

# Seconds to wait for each part to become ready / to stop after SIGTERM. Overridable for slow machines.
READY_TIMEOUT="${RUN_LOCAL_READY_TIMEOUT:-180}"
STOP_TIMEOUT="${RUN_LOCAL_STOP_TIMEOUT:-60}"
# Five JVMs share the machine: keep each small (docs/configuration/jvm.md: a heap that starts at 32 MB and
# grows on demand, the serial collector, caps on native memory; full JIT, as in production).
# RUN_LOCAL_JAVA_OPTS is appended (a later -Xmx or -D wins).
DEFAULT_JAVA_OPTS="-Xms32m -Xmx256m -XX:+UseSerialGC -XX:MaxDirectMemorySize=128m -XX:ReservedCodeCacheSize=96m -XX:MaxMetaspaceSize=128m -XX:+ExitOnOutOfMemoryError"
read -r -a JAVA_OPTS <<<"$DEFAULT_JAVA_OPTS ${RUN_LOCAL_JAVA_OPTS:-}"

COORD_JAR="ydb-embedded/target/ydb-embedded.jar"
BORDER_JAR="border-service/target/border-service.jar"
APP_JAR="app-service/target/app-service.jar"

REBUILD=false
SMOKE=false
CONTROL=""
CONTROL_PART=""

usage() {
  cat <<EOF
Usage: ./run-local.sh [--rebuild] [--smoke] [--help]
       ./run-local.sh stop|start|restart border-a|border-b

Starts the egress platform locally (coordination node, two Borders, App with its forward proxy on
127.0.0.1:$PROXY_PORT, demo sink) and waits
until every part is ready. Ctrl-C stops everything.

  --rebuild   build the jars even if they look up to date
  --smoke     non-interactive: start everything, send acme an asynchronous webhook (Prefer:
              respond-async) that the sink fails once (--fail-first 1 --fail-path) and check it is delivered on
              the retry from acme's IPs with the same webhook-id and a signature that verifies,
              dispatch one webhook for 'acme' (and one for
              'small-co'), check the sink saw them from the right source IPs, send acme's through
              a CONNECT tunnel of the forward proxy (and 407 without credentials), stop border-b
              and check acme still flows from border-a, start border-b again, stop, exit 0 or 1
  --help      this text

While the platform runs, from another terminal:
  stop border-b       drain and stop one Border (the rest keeps running; traffic moves)
  start border-b      start it again
  restart border-b    both

Environment: RUN_LOCAL_READY_TIMEOUT (s, default 180), RUN_LOCAL_STOP_TIMEOUT (s, default 60),
             DEMO_SINK_FAIL_FIRST (the demo sink answers the first N requests 503, so a durable
             webhook's retry is visible; DEMO_SINK_FAIL_PATH limits that to paths starting with it;
             --smoke fails exactly the first request of its own durable webhook instead),
             RUN_LOCAL_JAVA_OPTS (added after "$DEFAULT_JAVA_OPTS"),
             RUN_LOCAL_JAVA (java binary for the Borders and App), RUN_LOCAL_START_CACHE=off (no start-up
             caches: AppCDS on Java 17-24, ahead-of-time on 25+, trained once per build; local/aot.sh),
             and any EGRESS_* property as an environment variable for every service, e.g.
             EGRESS_ROUTING_STRATEGY=round-robin (see README, "Configuring the local run").
Logs: .run-local/logs/*.log
YDB tables (the embedded node's Query service): kept in .run-local/ydb-data across runs;
  rm -rf .run-local/ydb-data while the platform is stopped to start with no tables.
EOF
}

case "${1:-}" in
  stop | start | restart)
    CONTROL=$1
    CONTROL_PART=${2:-}
    case "$CONTROL_PART" in
      border-a | border-b) ;;
      *) echo "run-local: '$CONTROL' takes border-a or border-b (got '${CONTROL_PART}')" >&2; exit 2 ;;
    esac
    [ $# -eq 2 ] || { echo "run-local: '$CONTROL $CONTROL_PART' takes no further arguments" >&2; exit 2; }
    set --
    ;;
esac
for arg in "$@"; do
  case "$arg" in
    --rebuild) REBUILD=true ;;
    --smoke) SMOKE=true ;;
    -h | --help) usage; exit 0 ;;
    *) echo "run-local: unknown option '$arg'" >&2; usage >&2; exit 2 ;;
  esac
done

say() { printf '[run-local] %s\n' "$*"; }
die() { printf '[run-local] ERROR: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------------------------------------
# Control of a running platform: the running script owns the processes, so this invocation only
# asks it (a request file plus SIGUSR1) and waits for its answer.
# ---------------------------------------------------------------------------------------------
if [ -n "$CONTROL" ]; then
  supervisor=$(cat "$RUN_DIR/supervisor.pid" 2>/dev/null || true)
  [ -n "$supervisor" ] && kill -0 "$supervisor" 2>/dev/null \
    || die "no running ./run-local.sh found (start the platform first)."
  mkdir -p "$RUN_DIR/control"
  rm -f "$RUN_DIR/control/done"
  printf '%s %s\n' "$CONTROL" "$CONTROL_PART" >"$RUN_DIR/control/request"
  kill -USR1 "$supervisor"
  waited=0
  limit=$(( ${RUN_LOCAL_READY_TIMEOUT:-180} + ${RUN_LOCAL_STOP_TIMEOUT:-60} ))
  until [ -f "$RUN_DIR/control/done" ]; do
    [ "$waited" -lt "$limit" ] || die "no answer from the running ./run-local.sh after ${limit}s"
    sleep 1
    waited=$((waited + 1))
  done
  cat "$RUN_DIR/control/done"
  grep '^ok' "$RUN_DIR/control/done" >/dev/null
  exit $?
fi

# ---------------------------------------------------------------------------------------------
# Prerequisites
# ---------------------------------------------------------------------------------------------
JAVA="java"
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
  JAVA="$JAVA_HOME/bin/java"
fi
command -v "$JAVA" >/dev/null 2>&1 || die "no 'java' on PATH and no usable JAVA_HOME: install a JDK 17 or newer."
java_major=$("$JAVA" -version 2>&1 | sed -n 's/.*version "\([0-9][0-9]*\).*/\1/p')
[ -n "$java_major" ] && [ "$java_major" -ge 17 ] \
  || die "Java 17 or newer is required (found: $("$JAVA" -version 2>&1 | head -n 1))."
command -v curl >/dev/null 2>&1 || die "curl is required (apt-get install curl / brew install curl)."

# A listener on 127.0.0.1:<port> means another run (or another program) holds it.
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

busy=""
for port in "$COORD_PORT" "$BORDER_A_PORT" "$BORDER_B_PORT" "$APP_PORT" "$PROXY_PORT" "$SINK_PORT"; do
  if port_in_use "$port"; then busy="$busy $port"; fi
done
[ -z "$busy" ] || die "port(s)${busy} on 127.0.0.1 already in use. Is another ./run-local.sh running?
  Find the owner with: lsof -nP -iTCP:<port> -sTCP:LISTEN   (or: ss -ltnp)"

# Linux routes all of 127.0.0.0/8 to lo; macOS has only 127.0.0.1 until aliases are added.
if [ "$(uname -s)" = "Darwin" ]; then
  for ip in 127.0.0.2 127.0.0.3 127.0.0.4 127.0.0.5 127.0.0.6; do
    # No grep -q: with pipefail, an early exit of grep would fail the pipeline through SIGPIPE.
    ifconfig lo0 2>/dev/null | grep "inet $ip " >/dev/null \
      || die "$ip is not configured on lo0; the Borders need it. Add the five aliases once with:
  for i in 2 3 4 5 6; do sudo ifconfig lo0 alias 127.0.0.\$i up; done"
  done
fi

# ---------------------------------------------------------------------------------------------
# Build (only when needed)
# ---------------------------------------------------------------------------------------------
needs_build() {
  local jar
  for jar in "$COORD_JAR" "$BORDER_JAR" "$APP_JAR"; do
    [ -f "$jar" ] || return 0
  done
  [ -d ydb-embedded/target/lib ] || return 0
  # Any source or POM newer than the oldest jar: rebuild.
  local oldest
  oldest=$(ls -t "$COORD_JAR" "$BORDER_JAR" "$APP_JAR" | tail -n 1)
  [ -n "$(find pom.xml discovery-common ydb-embedded border-service app-service \
            -path '*/target' -prune -o -type f -newer "$oldest" -print 2>/dev/null | head -n 1)" ]
}

mkdir -p "$LOG_DIR"
if $REBUILD || needs_build; then
  say "building the jars: ./mvnw -B -ntp -DskipTests package (log: .run-local/logs/build.log)"
  say "the first build downloads dependencies and takes a few minutes"
  if ! ./mvnw -B -ntp -DskipTests package -pl ydb-embedded,border-service,app-service -am \
      >"$LOG_DIR/build.log" 2>&1; then
    grep -E '^\[ERROR\]' "$LOG_DIR/build.log" | head -n 30 >&2 || tail -n 30 "$LOG_DIR/build.log" >&2
    die "build failed (full output: .run-local/logs/build.log)."
  fi
  say "build done"
else
  say "jars are up to date (use --rebuild to force a build)"
fi
# How the Borders and App start: from a start-up cache each, trained once per build (local/aot.sh).
. "$ROOT/local/aot.sh"

# ---------------------------------------------------------------------------------------------
# Process bookkeeping and clean shutdown
# ---------------------------------------------------------------------------------------------
NAMES=()
PIDS=()
STOPPING=false

pid_of() {
  local i
  for i in "${!NAMES[@]}"; do
    if [ "${NAMES[$i]}" = "$1" ]; then echo "${PIDS[$i]}"; return 0; fi
  done
  return 1
}

# start NAME COMMAND...: runs COMMAND in the background with its output in $LOG_DIR/NAME.log.
# Background jobs of a non-interactive shell ignore SIGINT, so Ctrl-C reaches only this script,
# which then stops the children with SIGTERM in a deliberate order (see cleanup).
start() {
  local name=$1 i
  shift
  : >"$LOG_DIR/$name.log"
  "$@" >>"$LOG_DIR/$name.log" 2>&1 &
  for i in "${!NAMES[@]}"; do
    if [ "${NAMES[$i]}" = "$name" ]; then PIDS[$i]=$!; say "started $name again (pid $!)"; return 0; fi
  done
  NAMES+=("$name")
  PIDS+=("$!")
  say "started $name (pid $!, log .run-local/logs/$name.log)"
}

# stop_and_wait NAME...: SIGTERM each, then wait up to STOP_TIMEOUT s for all, then SIGKILL stragglers.
stop_and_wait() {
  local name pid waited=0 alive
  for name in "$@"; do
    pid=$(pid_of "$name") || continue
    kill -TERM "$pid" 2>/dev/null || true
  done
  while :; do
    alive=""
    for name in "$@"; do
      pid=$(pid_of "$name") || continue
      if kill -0 "$pid" 2>/dev/null; then alive="$alive $name"; fi
    done
    [ -n "$alive" ] || break
    if [ "$waited" -ge "$STOP_TIMEOUT" ]; then
      say "still running after ${STOP_TIMEOUT}s, killing:$alive"
      for name in $alive; do kill -KILL "$(pid_of "$name")" 2>/dev/null || true; done
      break
    fi
    sleep 1
    waited=$((waited + 1))
  done
  for name in "$@"; do
    pid=$(pid_of "$name") || continue
    wait "$pid" 2>/dev/null || true
  done
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  $STOPPING && return
  STOPPING=true
  if [ "${#PIDS[@]}" -gt 0 ]; then
    say "stopping..."
    # App first (no new dispatches), then the Borders (they publish DRAINING, finish in-flight
    # requests and release their registry slots), last the sink and the coordination node.
    stop_and_wait app
    stop_and_wait border-a border-b
    stop_and_wait sink coordination
    say "stopped. Logs are in .run-local/logs/"
  fi
  rm -f "$RUN_DIR/supervisor.pid"
  exit "$status"
}
trap cleanup EXIT
trap 'echo; exit 130' INT
trap 'exit 143' TERM

fail_with_log() {
  local name=$1
  shift
  echo >&2
  printf '[run-local] ERROR: %s\n' "$*" >&2
  # The cause first (Spring Boot's failure analysis or the innermost exception), then the log's tail.
  echo "---- errors in .run-local/logs/$name.log ----" >&2
  grep -E '^(Description:|Caused by:|[A-Za-z.]+(Exception|Error)\b)| ERROR ' "$LOG_DIR/$name.log" 2>/dev/null \
    | tail -n 6 | cut -c 1-400 >&2 || true
  echo "---- last lines ----" >&2
  tail -n 15 "$LOG_DIR/$name.log" >&2 || true
  echo "----" >&2
  exit 1
}

# wait_until NAME DESCRIPTION COMMAND...: polls COMMAND once a second until it succeeds, the process
# NAME dies, or READY_TIMEOUT passes.
wait_until() {
  local name=$1 what=$2 waited=0 pid
  shift 2
  pid=$(pid_of "$name")
  until "$@"; do
    kill -0 "$pid" 2>/dev/null || fail_with_log "$name" "$name exited while waiting for: $what"
    [ "$waited" -lt "$READY_TIMEOUT" ] || fail_with_log "$name" "$name: not ready after ${READY_TIMEOUT}s ($what)"
    sleep 1
    waited=$((waited + 1))
  done
  say "$name ready ($what, ${waited}s)"
}

log_has() { grep -qF -- "$2" "$LOG_DIR/$1.log" 2>/dev/null; }
# Borders serve https with a certificate of the local CA (which also names 127.0.0.1); App serves http.
ready() { curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$1/actuator/health/readiness" 2>/dev/null; }
ready_tls() { curl -fsS -o /dev/null --max-time 2 --cacert "$CA" "https://127.0.0.1:$1/actuator/health/readiness" 2>/dev/null; }

# ---------------------------------------------------------------------------------------------
# Start the platform
# ---------------------------------------------------------------------------------------------
# A fresh throwaway CA and identities at every start: nothing from an earlier run is trusted. Each Border's
# certificate names the IPs it may announce (IP SANs): App refuses a Border announcing any other IP.
# Keep them in step with start_border below.
say "making a throwaway local CA and the Border/App certificates with keytool (.run-local/pki/)"
rm -rf "$PKI_DIR"
if ! "$JAVA" local/LocalPki.java "$PKI_DIR" \
    "border-a=uri:spiffe://egress.local/border/border-a,ip:127.0.0.1,dns:localhost,ip:127.0.0.2,ip:127.0.0.3" \
    "border-b=uri:spiffe://egress.local/border/border-b,ip:127.0.0.1,dns:localhost,ip:127.0.0.4,ip:127.0.0.5,ip:127.0.0.6" \
    "app=uri:spiffe://egress.local/app/app" >"$LOG_DIR/pki.log" 2>&1; then
  cat "$LOG_DIR/pki.log" >&2
  die "could not make the local PKI (log: .run-local/logs/pki.log)."
fi
CA="$PKI_DIR/ca.pem"

say "starting the platform (logs in .run-local/logs/)"
say "local mode: Borders may send to $EGRESS_SSRF_ALLOWEDRANGES only (egress.ssrf.allowed-ranges), the demo"
say "            sink; App, the Borders, the coordination node and every other private/loopback address"
say "            stay denied, as in production."
echo $$ >"$RUN_DIR/supervisor.pid"

# The node's tables live in a data directory that outlives runs; rm -rf .run-local/ydb-data starts clean.
mkdir -p "$YDB_DATA_DIR"
say "YDB tables are kept in $YDB_DATA_DIR (rm -rf it while stopped to start clean)"
start coordination "$JAVA" ${JAVA_OPTS[@]+"${JAVA_OPTS[@]}"} -jar "$COORD_JAR" --port "$COORD_PORT" --database /local \
  --data-dir "$YDB_DATA_DIR"
wait_until coordination "listening on $REGISTRY" log_has coordination "$REGISTRY"

# --smoke's first check is a durable webhook whose first attempt must fail: the sink fails exactly the first request
# to that webhook's path, so a webhook stored by an earlier run (in .run-local/ydb-data) and retried now neither
# fails nor uses up the failure.
SMOKE_ASYNC_PATH="/hooks/smoke-async-$$-$RANDOM"
SINK_ARGS=()
if $SMOKE; then SINK_ARGS=(--fail-first 1 --fail-path "$SMOKE_ASYNC_PATH"); fi
start sink "$JAVA" ${JAVA_OPTS[@]+"${JAVA_OPTS[@]}"} local/DemoSink.java ${SINK_ARGS[@]+"${SINK_ARGS[@]}"} \
  "$SINK_PORT" 127.0.0.1

common_registry=(
  "--egress.registry.connection-string=$REGISTRY"
  "--egress.registry.node=egress"
  "--egress.registry.semaphore=borders-registry"
)
border() { # border ID PORT IPS
  start "$1" "$SERVICE_JAVA" ${JAVA_OPTS[@]+"${JAVA_OPTS[@]}"} "${BORDER_LAUNCH[@]}" \
    "--server.address=127.0.0.1" \
    "--server.port=$2" \
    "--egress.border.id=$1" \
    "--egress.border.ips=$3" \
    "--egress.border.allow-loopback-ips=true" \
    "--egress.border.advertised-url=https://127.0.0.1:$2" \
    "--egress.trust.certificate=$PKI_DIR/$1.pem" \
    "--egress.trust.private-key=$PKI_DIR/$1-key.pem" \
    "--egress.trust.app-ca=$CA" \
    "${common_registry[@]}"
}
# 127.0.0.6 on border-b is a spare: no tenant uses it, so a new dedicated tenant can take it.
start_border() {
  case "$1" in
    border-a) border border-a "$BORDER_A_PORT" 127.0.0.2,127.0.0.3 ;;
    border-b) border border-b "$BORDER_B_PORT" 127.0.0.4,127.0.0.5,127.0.0.6 ;;
  esac
}
port_of() { case "$1" in border-a) echo "$BORDER_A_PORT" ;; border-b) echo "$BORDER_B_PORT" ;; esac; }
ips_of() { case "$1" in border-a) echo "127.0.0.2 127.0.0.3" ;; border-b) echo "127.0.0.4 127.0.0.5 127.0.0.6" ;; esac; }
start_border border-a
start_border border-b

start app "$SERVICE_JAVA" ${JAVA_OPTS[@]+"${JAVA_OPTS[@]}"} "${APP_LAUNCH[@]}" \
  "--server.address=127.0.0.1" \
  "--server.port=$APP_PORT" \
  "--egress.trust.certificate=$PKI_DIR/app.pem" \
  "--egress.trust.private-key=$PKI_DIR/app-key.pem" \
  "--egress.trust.border-ca=$CA" \
  "--egress.tenants.file=$TENANTS_FILE" \
  "--egress.signing.secrets-file=$SIGNING_SECRETS_FILE" \
  "--egress.delivery.store.connection-string=$DELIVERY_STORE" \
  "--egress.proxy.enabled=true" \
  "--egress.proxy.address=127.0.0.1" \
  "--egress.proxy.port=$PROXY_PORT" \
  "--egress.registry.create-if-missing=true" \
  "${common_registry[@]}"

wait_until sink "http://127.0.0.1:$SINK_PORT" log_has sink "Demo sink listening"
wait_until border-a "readiness UP" ready_tls "$BORDER_A_PORT"
wait_until border-b "readiness UP" ready_tls "$BORDER_B_PORT"
wait_until app "readiness UP" ready "$APP_PORT"
wait_until app "forward proxy on 127.0.0.1:$PROXY_PORT" port_in_use "$PROXY_PORT"

# App's readiness does not wait for Borders; wait until its snapshot routes every dedicated IP.
ips_json() {
  curl -fsS --max-time 2 -H "Authorization: Bearer $API_TOKEN" "http://127.0.0.1:$APP_PORT/v1/egress/ips" 2>/dev/null
}
# ips_routable IP...: App's snapshot lists every given IP.
ips_routable() {
  local body ip
  body=$(ips_json) || return 1
  body=$(printf '%s' "$body" | tr -d ' \n')
  for ip in "$@"; do
    case "$body" in *"\"ip\":\"$ip\""*) ;; *) return 1 ;; esac
  done
}
# ips_gone IP...: App's snapshot lists none of the given IPs.
ips_gone() {
  local body ip
  body=$(ips_json) || return 1
  body=$(printf '%s' "$body" | tr -d ' \n')
  for ip in "$@"; do
    case "$body" in *"\"ip\":\"$ip\""*) return 1 ;; esac
  done
}
# shellcheck disable=SC2046 # the IP lists are meant to split
wait_until app "all dedicated IPs routable" ips_routable $(ips_of border-a) $(ips_of border-b)

# ---------------------------------------------------------------------------------------------
# One Border at a time: stop (drain) and start again, for failover drills
# ---------------------------------------------------------------------------------------------
# DOWN lists the Borders stopped on purpose or found dead: the platform keeps running without them.
DOWN=" "
is_down() { case "$DOWN" in *" $1 "*) return 0 ;; esac; return 1; }

stop_border() {
  if is_down "$1"; then say "$1 is already stopped"; return 0; fi
  say "stopping $1 (it publishes DRAINING, finishes in-flight webhooks, releases its registry slot)"
  stop_and_wait "$1"
  DOWN="$DOWN$1 "
  # The waits run in a subshell: a timeout there must fail this request, not stop the platform.
  # shellcheck disable=SC2046
  (wait_until app "$1's IPs gone from App's snapshot" ips_gone $(ips_of "$1"))
}

start_border_again() {
  if ! is_down "$1"; then say "$1 is already running"; return 0; fi
  start_border "$1"
  DOWN=$(printf '%s' "$DOWN" | sed "s/ $1 / /")
  # shellcheck disable=SC2046
  (wait_until "$1" "readiness UP" ready_tls "$(port_of "$1")" \
    && wait_until app "$1's IPs routable again" ips_routable $(ips_of "$1"))
}

# Requests from './run-local.sh stop|start|restart border-x' arrive as SIGUSR1; the main loop runs
# them between its checks, so the bookkeeping (PIDS, DOWN) stays in this one process.
CONTROL_PENDING=false
trap 'CONTROL_PENDING=true' USR1
handle_control() {
  local request="" part="" outcome=ok
  CONTROL_PENDING=false
  [ -f "$RUN_DIR/control/request" ] || return 0
  read -r request part <"$RUN_DIR/control/request" || true
  rm -f "$RUN_DIR/control/request"
  case "$request" in
    stop) stop_border "$part" >"$RUN_DIR/control/out" 2>&1 || outcome=failed ;;
    start) start_border_again "$part" >"$RUN_DIR/control/out" 2>&1 || outcome=failed ;;
    restart) { stop_border "$part" && start_border_again "$part"; } >"$RUN_DIR/control/out" 2>&1 || outcome=failed ;;
    *) echo "unknown request '$request'" >"$RUN_DIR/control/out"; outcome=failed ;;
  esac
  cat "$RUN_DIR/control/out"
  { echo "$outcome: $request $part"; cat "$RUN_DIR/control/out"; } >"$RUN_DIR/control/done.tmp"
  mv "$RUN_DIR/control/done.tmp" "$RUN_DIR/control/done"
}

# ---------------------------------------------------------------------------------------------
# Smoke mode: one delivery per tenant, checked at the sink
# ---------------------------------------------------------------------------------------------
# dispatch TENANT PATH [PORT]: writes App's response body to response.json, prints the HTTP status.
dispatch() {
  curl -sS --max-time 15 -o "$RUN_DIR/response.json" -w '%{http_code}' \
    -H "Authorization: Bearer $API_TOKEN" -H 'Content-Type: application/json' \
    -d "{\"tenantId\":\"$1\",\"url\":\"http://127.0.0.1:${3:-$SINK_PORT}$2\",\"payload\":{\"event\":\"smoke\",\"tenant\":\"$1\"}}" \
    "http://127.0.0.1:$APP_PORT/v1/deliveries"
}

# smoke_denied PORT: a webhook aimed at the platform's own service on 127.0.0.1:PORT must answer 403 target-denied.
smoke_denied() {
  local code
  code=$(dispatch acme /smoke-loop "$1") || code="curl-failed"
  if [ "$code" = "403" ] && grep -q 'target-denied' "$RUN_DIR/response.json"; then
    say "OK   127.0.0.1:$1 refused as a webhook target (403 target-denied)"
    return 0
  fi
  say "FAIL 127.0.0.1:$1 as a webhook target: App answered $code: $(cat "$RUN_DIR/response.json" 2>/dev/null || true)"
  return 1
}

# smoke_one TENANT ALLOWED_IP...: dispatch once; the sink must have seen it from one of ALLOWED_IPs.
smoke_one() {
  local tenant=$1 path code from
  shift
  path="/hooks/smoke-$tenant-$$-$RANDOM"
  code=$(dispatch "$tenant" "$path") || code="curl-failed"
  if [ "$code" != "200" ]; then
    say "FAIL $tenant: App answered $code: $(cat "$RUN_DIR/response.json" 2>/dev/null || true)"
    return 1
  fi
  # The sink prints "delivery #n from <ip>:<port> <METHOD> <path> ..." once it has answered.
  from=$(sed -n "s|^delivery #[0-9]* from \([0-9.]*\):[0-9]* [A-Z]* ${path} .*|\1|p" "$LOG_DIR/sink.log")
  if [ -z "$from" ]; then
    say "FAIL $tenant: App answered 200 but the sink never saw $path"
    return 1
  fi
  for ip in "$@"; do
    if [ "$from" = "$ip" ]; then
      say "OK   $tenant: delivered from $from (allowed: $*)"
      return 0
    fi
  done
  say "FAIL $tenant: the sink saw $path from $from, expected one of: $*"
  return 1
}

# through_proxy PATH [CREDENTIALS]: one webhook through App's forward proxy, as curl -p sends it: a CONNECT
# tunnel to the sink, the POST inside it. Writes the sink's answer to response.json and every answer head (the
# proxy's first) to proxy-head.txt; prints the CONNECT's status when it is not 200, else the sink's.
through_proxy() {
  local code connect
  code=$(curl -sS --max-time 15 -o "$RUN_DIR/response.json" -D "$RUN_DIR/proxy-head.txt" \
    -w '%{http_code} %{http_connect}' --proxytunnel -x "http://${2+$2@}127.0.0.1:$PROXY_PORT" \
    -H 'Content-Type: application/json' -d "{\"event\":\"smoke\",\"via\":\"proxy\"}" \
    "http://127.0.0.1:$SINK_PORT$1" 2>/dev/null) || true
  connect=${code#* }
  code=${code%% *}
  if [ -n "$connect" ] && [ "$connect" != "200" ] && [ "$connect" != "000" ]; then code=$connect; fi
  echo "${code:-000}"
}

# smoke_proxy: acme's webhook through a CONNECT tunnel of the proxy reaches the sink from one of acme's IPs.
smoke_proxy() {
  local path code from
  path="/hooks/smoke-proxy-$$-$RANDOM"
  code=$(through_proxy "$path" "acme:$API_TOKEN")
  if [ "$code" != "200" ]; then
    say "FAIL proxy CONNECT: answered $code: $(cat "$RUN_DIR/response.json" 2>/dev/null || true)"
    return 1
  fi
  from=$(sed -n "s|^delivery #[0-9]* from \([0-9.]*\):[0-9]* [A-Z]* ${path} .*|\1|p" "$LOG_DIR/sink.log")
  case "$from" in
    127.0.0.3 | 127.0.0.4) say "OK   proxy CONNECT: acme's webhook reached the sink from $from (allowed: 127.0.0.3 127.0.0.4)" ;;
    "") say "FAIL proxy CONNECT: answered 200 but the sink never saw $path"; return 1 ;;
    *) say "FAIL proxy CONNECT: the sink saw $path from $from, expected 127.0.0.3 or 127.0.0.4"; return 1 ;;
  esac
}

# smoke_proxy_unauthenticated: no credentials -> 407 with the Basic challenge, and nothing at the sink.
smoke_proxy_unauthenticated() {
  local path code
  path="/hooks/smoke-proxy-anonymous-$$-$RANDOM"
  code=$(through_proxy "$path")
  if [ "$code" = "407" ] && grep -i '^proxy-authenticate: basic realm="egress"' "$RUN_DIR/proxy-head.txt" >/dev/null \
      && ! grep -F " $path " "$LOG_DIR/sink.log" >/dev/null; then
    say "OK   proxy without credentials: 407 with Proxy-Authenticate: Basic realm=\"egress\""
    return 0
  fi
  say "FAIL proxy without credentials: answered $code: $(tr -d '\r' <"$RUN_DIR/proxy-head.txt" 2>/dev/null | head -n 8 | tr '\n' ' ')"
  return 1
}

# drive_control ACTION PART: runs './run-local.sh ACTION PART' as a user would from another terminal,
# and serves its request meanwhile (in smoke mode the main loop is not running yet).
drive_control() {
  local client status=0
  mkdir -p "$RUN_DIR/control"
  "$ROOT/run-local.sh" "$1" "$2" >"$RUN_DIR/control/client.out" 2>&1 &
  client=$!
  while kill -0 "$client" 2>/dev/null; do
    if $CONTROL_PENDING; then handle_control; fi
    sleep 1
  done
  wait "$client" || status=$?
  # The supervisor side already printed the details; the client's first line is its verdict.
  say "./run-local.sh $1 $2 -> $(head -n 1 "$RUN_DIR/control/client.out")"
  return "$status"
}

# json_text NAME FILE: the first "NAME":"value" string of a JSON file (App's answers are compact JSON).
json_text() { grep -o "\"$1\":\"[^\"]*\"" "$2" 2>/dev/null | sed -n '1s/^"[^"]*":"\(.*\)"$/\1/p'; }
# header_of NAME FILE: a response header's value from a curl -D file (names in any case).
header_of() {
  tr -d '\r' <"$2" | awk -v name="$1" '
    index($0, ":") { n = substr($0, 1, index($0, ":") - 1); v = substr($0, index($0, ":") + 1)
      sub(/^ +/, "", v); if (tolower(n) == tolower(name)) found = v }
    END { print found }'
}

# sink_entries PATH: one tab-separated line per request the sink saw on PATH, in order:
# source IP, the sink's answer status, webhook-id, webhook-timestamp, webhook-signature, the body's first line.
sink_entries() {
  awk -v path="$1" '
    function flush() { if (mine) printf "%s\t%s\t%s\t%s\t%s\t%s\n", ip, status, id, ts, sig, body }
    /^delivery #/ {
      flush()
      mine = ($6 == path); split($4, from, ":"); ip = from[1]; status = $NF
      id = "-"; ts = "-"; sig = "-"; body = ""; next
    }
    mine && /^    webhook-id: / { id = substr($0, 17); next }
    mine && /^    webhook-timestamp: / { ts = substr($0, 24); next }
    mine && /^    webhook-signature: / { sig = substr($0, 24); next }
    mine && /^    / && body == "" { body = substr($0, 5); next }
    END { flush() }
  ' "$LOG_DIR/sink.log"
}

# smoke_async: issue 35's local check. acme's webhook with "Prefer: respond-async" is accepted (202, Location,
# Preference-Applied) once stored; its first attempt meets the sink's one failure (503) and the default schedule
# retries it ~5 s later; it is delivered, every attempt left from acme's IPs with webhook-id = the delivery's id,
# and each signature verifies with acme's secret over the exact bytes sent. The sink fails only the first request
# to SMOKE_ASYNC_PATH (--fail-first 1 --fail-path).
smoke_async() {
  local path payload code id location status="" waited=0 attempts=0 verdicts="" secret
  local from answered wid ts sig body
  path="$SMOKE_ASYNC_PATH"
  payload="{\"event\":\"smoke\",\"mode\":\"async\",\"n\":$RANDOM}"
  code=$(curl -sS --max-time 15 -o "$RUN_DIR/response.json" -D "$RUN_DIR/async-head.txt" -w '%{http_code}' \
    -H "Authorization: Bearer $API_TOKEN" -H 'Content-Type: application/json' -H 'Prefer: respond-async' \
    -d "{\"tenantId\":\"acme\",\"url\":\"http://127.0.0.1:$SINK_PORT$path\",\"payload\":$payload}" \
    "http://127.0.0.1:$APP_PORT/v1/deliveries") || code="curl-failed"
  id=$(json_text id "$RUN_DIR/response.json")
  location=$(header_of Location "$RUN_DIR/async-head.txt")
  status=$(json_text status "$RUN_DIR/response.json")
  if [ "$code" != "202" ] || [ -z "$id" ]; then
    say "FAIL acme async: App answered $code: $(cat "$RUN_DIR/response.json" 2>/dev/null || true)"
    return 1
  fi
  case "$location" in
    */v1/deliveries/"$id") ;;
    *) say "FAIL acme async: Location '$location' does not name /v1/deliveries/$id"; return 1 ;;
  esac
  if [ "$(header_of Preference-Applied "$RUN_DIR/async-head.txt")" != "respond-async" ]; then
    say "FAIL acme async: no 'Preference-Applied: respond-async' in: $(tr -d '\r' <"$RUN_DIR/async-head.txt" | tr '\n' ' ')"
    return 1
  fi
  case "$status" in
    pending | delivering) ;;
    *) say "FAIL acme async: accepted with status '$status' (expected: pending or delivering)"; return 1 ;;
  esac
  # The default schedule's second attempt comes 5 s (±20 %) after the first.
  while [ "$waited" -lt 60 ]; do
    curl -sS --max-time 5 -o "$RUN_DIR/delivery.json" -H "Authorization: Bearer $API_TOKEN" \
      "http://127.0.0.1:$APP_PORT/v1/deliveries/$id" 2>/dev/null || true
    status=$(json_text status "$RUN_DIR/delivery.json")
    case "$status" in delivered | dead) break ;; esac
    sleep 1
    waited=$((waited + 1))
  done
  if [ "$status" != "delivered" ]; then
    say "FAIL acme async: $id is '$status' after ${waited}s: $(cat "$RUN_DIR/delivery.json" 2>/dev/null || true)"
    return 1
  fi
  # The record's attempt log: the sink's 503, then its 200, every attempt from one of acme's IPs.
  if ! grep -F '"targetStatus":503' "$RUN_DIR/delivery.json" >/dev/null \
      || ! grep -F '"targetStatus":200' "$RUN_DIR/delivery.json" >/dev/null \
      || grep -o '"egressIp":"[^"]*"' "$RUN_DIR/delivery.json" | grep -v -e '"127.0.0.3"' -e '"127.0.0.4"' >/dev/null; then
    say "FAIL acme async: the attempt log is not a 503 then a 200 from 127.0.0.3/.4: $(cat "$RUN_DIR/delivery.json")"
    return 1
  fi
  # What arrived: a 503 first, a 200 last, each from acme's IPs, each with the delivery's id and a valid signature.
  secret=$(sed -n 's/^acme: *\(whsec_[^ ]*\).*/\1/p' "$SIGNING_SECRETS_FILE")
  sink_entries "$path" >"$RUN_DIR/async-entries.txt"
  while IFS=$'\t' read -r from answered wid ts sig body; do
    attempts=$((attempts + 1))
    verdicts="$verdicts $answered"
    case "$from" in
      127.0.0.3 | 127.0.0.4) ;;
      *) say "FAIL acme async: attempt $attempts reached the sink from $from (allowed: 127.0.0.3 127.0.0.4)"; return 1 ;;
    esac
    if [ "$wid" != "$id" ]; then
      say "FAIL acme async: attempt $attempts carried webhook-id '$wid', expected the delivery's id $id"
      return 1
    fi
    if [ "$body" != "$payload" ]; then
      say "FAIL acme async: attempt $attempts carried '$body', expected the payload's bytes '$payload'"
      return 1
    fi
    if ! "$JAVA" "$ROOT/local/VerifyWebhook.java" "$secret" "$wid" "$ts" "$sig" "$payload" >"$RUN_DIR/verify.txt" 2>&1; then
      say "FAIL acme async: attempt $attempts's signature does not verify: $(cat "$RUN_DIR/verify.txt")"
      return 1
    fi
  done <"$RUN_DIR/async-entries.txt"
  case "$verdicts" in
    " 503"*" 200") ;;
    *) say "FAIL acme async: the sink answered its attempts:${verdicts:- none} (expected: 503 first, 200 last)"; return 1 ;;
  esac
  say "OK   acme async: 202 $location; the sink answered$verdicts; delivered from acme's IPs, webhook-id $id on each of $attempts attempts, signatures verified"
}

if $SMOKE; then
  say "smoke test"
  result=0
  smoke_async || result=1
  smoke_one acme 127.0.0.3 127.0.0.4 || result=1
  smoke_one small-co 127.0.0.2 127.0.0.5 || result=1
  for port in "$APP_PORT" "$BORDER_A_PORT" "$BORDER_B_PORT" "$COORD_PORT"; do
    smoke_denied "$port" || result=1
  done
  smoke_proxy || result=1
  smoke_proxy_unauthenticated || result=1
  # The failover drill a user runs by hand, through the same commands: border-b stops, acme keeps
  # flowing from border-a's 127.0.0.3, border-b comes back and its IPs are routable again.
  drive_control stop border-b || result=1
  smoke_one acme 127.0.0.3 || result=1
  drive_control start border-b || result=1
  # RUN_LOCAL_JAVA_OPTS is added after the defaults, not instead of them.
  if [ -n "${RUN_LOCAL_JAVA_OPTS:-}" ]; then
    if ps -o args= -p "$(pid_of app)" | grep -F -- "$DEFAULT_JAVA_OPTS $RUN_LOCAL_JAVA_OPTS" >/dev/null; then
      say "OK   RUN_LOCAL_JAVA_OPTS added after the defaults"
    else
      say "FAIL RUN_LOCAL_JAVA_OPTS: App runs with: $(ps -o args= -p "$(pid_of app)" | cut -c 1-200)"
      result=1
    fi
  fi
  if [ "$result" -eq 0 ]; then say "smoke test passed"; else say "smoke test FAILED (logs: .run-local/logs/)"; fi
  exit "$result"
fi

# ---------------------------------------------------------------------------------------------
# Interactive mode: print what to try, then run until Ctrl-C or until a part dies
# ---------------------------------------------------------------------------------------------
cat <<EOF

The egress platform is running on loopback:
  App (dispatch API)      http://127.0.0.1:$APP_PORT        API token:      $API_TOKEN
  App (forward proxy)     http://127.0.0.1:$PROXY_PORT        user = tenant id, password = the API token
  border-a (127.0.0.2/3)  https://127.0.0.1:$BORDER_A_PORT       operator token: $OPERATOR_TOKEN
  border-b (127.0.0.4/5)  https://127.0.0.1:$BORDER_B_PORT       internal token: $INTERNAL_TOKEN (App -> Border)
  YDB node                $REGISTRY   (coordination; tables kept in $YDB_DATA_DIR)
  durable delivery        store: ${DELIVERY_STORE:-off (EGRESS_DELIVERY_STORE_CONNECTIONSTRING is empty)}
  demo sink               http://127.0.0.1:$SINK_PORT/   (tail -f .run-local/logs/sink.log)
  operator page           http://127.0.0.1:$APP_PORT/ops/   sign in with the operator token: $OPERATOR_TOKEN
These tokens are fixed, local-only values. Local mode allows 127.0.0.1/32 as a webhook target.
Trust chain: Borders sign their announcements and serve https; App calls them over mutual TLS. The
throwaway CA and certificates of this run are in .run-local/pki/ (CA: .run-local/pki/ca.pem).

Try it (watch the sink log: acme's webhooks arrive from 127.0.0.3 or 127.0.0.4 only):

  # a webhook for acme (dedicated IPs 127.0.0.3, 127.0.0.4)
  curl -s -H 'Authorization: Bearer $API_TOKEN' -H 'Content-Type: application/json' \\
    -d '{"tenantId":"acme","url":"http://127.0.0.1:$SINK_PORT/hooks/acme","payload":{"event":"order.created","id":42}}' \\
    http://127.0.0.1:$APP_PORT/v1/deliveries

  # a durable webhook for acme: 202 as soon as it is stored, then delivered and retried on the schedule until
  # it is (signed: the sink prints webhook-id, webhook-timestamp, webhook-signature; docs/delivery.md)
  curl -s -i -H 'Authorization: Bearer $API_TOKEN' -H 'Content-Type: application/json' -H 'Prefer: respond-async' \\
    -d '{"tenantId":"acme","url":"http://127.0.0.1:$SINK_PORT/hooks/acme","payload":{"event":"order.paid","id":43}}' \\
    http://127.0.0.1:$APP_PORT/v1/deliveries
  # read it back with every attempt (the id from the answer's Location); to see a retry, start the platform
  # with DEMO_SINK_FAIL_FIRST=1 ./run-local.sh: the sink fails the first call, the next comes ~5 s later
  curl -s -H 'Authorization: Bearer $API_TOKEN' http://127.0.0.1:$APP_PORT/v1/deliveries/<id>
  curl -s -H 'Authorization: Bearer $API_TOKEN' 'http://127.0.0.1:$APP_PORT/v1/deliveries?tenantId=acme'

  # a webhook for small-co (shared pool 127.0.0.2, 127.0.0.5)
  curl -s -H 'Authorization: Bearer $API_TOKEN' -H 'Content-Type: application/json' \\
    -d '{"tenantId":"small-co","url":"http://127.0.0.1:$SINK_PORT/hooks/small-co","payload":{"event":"ping"}}' \\
    http://127.0.0.1:$APP_PORT/v1/deliveries

  # the same through the forward proxy (any client with a proxy setting; user = tenant, password = API
  # token): -p opens a CONNECT tunnel, which every client does for an https:// target
  curl -p -x http://acme:$API_TOKEN@127.0.0.1:$PROXY_PORT -d '{"event":"order.created"}' http://127.0.0.1:$SINK_PORT/hook

  # the live map IP -> Borders, and what acme allowlists
  curl -s -H 'Authorization: Bearer $API_TOKEN' http://127.0.0.1:$APP_PORT/v1/egress/ips
  curl -s -H 'Authorization: Bearer $API_TOKEN' http://127.0.0.1:$APP_PORT/v1/tenants/acme/egress

  # drain 127.0.0.3 on border-a: acme's webhooks move to 127.0.0.4 (set "ACTIVE" to undo)
  curl -s --cacert .run-local/pki/ca.pem -X PUT -H 'Authorization: Bearer $OPERATOR_TOKEN' \\
    -H 'Content-Type: application/json' -d '{"status":"DRAINING"}' https://127.0.0.1:$BORDER_A_PORT/ops/v1/ips/127.0.0.3
  curl -s --cacert .run-local/pki/ca.pem -H 'Authorization: Bearer $OPERATOR_TOKEN' https://127.0.0.1:$BORDER_A_PORT/ops/v1/ips

  # failover drill: stop border-b (acme leaves only from 127.0.0.3 meanwhile), then bring it back
  ./run-local.sh stop border-b
  ./run-local.sh start border-b

API reference: http://127.0.0.1:$APP_PORT/swagger-ui.html (OpenAPI document: /v3/api-docs)
Press Ctrl-C to stop everything.
EOF

while :; do
  if $CONTROL_PENDING; then handle_control; fi
  for i in "${!NAMES[@]}"; do
    name=${NAMES[$i]}
    if ! kill -0 "${PIDS[$i]}" 2>/dev/null && ! is_down "$name"; then
      case "$name" in
        border-a | border-b)
          # One Border down is a drill, not a disaster: App routes around it.
          DOWN="$DOWN$name "
          say "$name exited; the platform keeps running without it (its IPs leave App's snapshot when its"
          say "  registry session expires). Start it again with: ./run-local.sh start $name"
          ;;
        *) fail_with_log "$name" "$name stopped unexpectedly; stopping the rest" ;;
      esac
    fi
  done
  sleep 1
done
