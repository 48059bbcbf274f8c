# Shared pieces of the shell benchmarks: source it, do not run it.
#   . "$ROOT/bench/lib/common.sh"
# Starts the sink (nginx), the embedded coordination node, Borders, Apps and Squid on loopback; every process
# started here is killed by the EXIT trap (by pid). Needs wrk, nginx, curl (apt-get install -y wrk nginx curl).

LIB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
APP_JAR=${APP_JAR:-"$LIB_ROOT/app-service/target/app-service.jar"}
BORDER_JAR=${BORDER_JAR:-"$LIB_ROOT/border-service/target/border-service.jar"}
COORD_JAR=${COORD_JAR:-"$LIB_ROOT/ydb-embedded/target/ydb-embedded.jar"}
BENCH_JAR="$LIB_ROOT/bench/target/benchmarks.jar"
INTERNAL_TOKEN=${INTERNAL_TOKEN:-bench-internal-token}
OPERATOR_TOKEN=${OPERATOR_TOKEN:-bench-operator-token}
APP_TOKEN=${APP_TOKEN:-bench-api-token}
export INTERNAL_TOKEN OPERATOR_TOKEN APP_TOKEN
PIDS=()

need_jars() { # jar... : fail with the build command if one is missing
  for jar in "$@"; do
    [[ -f $jar ]] || { echo "missing $jar: ./mvnw -B -ntp -DskipTests package (and -Pbench -pl bench -am for the bench jar)" >&2; exit 1; }
  done
}
need_tools() { for t in "$@"; do command -v "$t" >/dev/null || { echo "needs $t (apt-get install -y $t)" >&2; exit 1; }; done; }

make_work() { # name -> sets WORK
  WORK=$(mktemp -d "/tmp/$1.XXXXXX"); chmod 777 "$WORK"
  trap lib_cleanup EXIT
}
lib_cleanup() {
  [[ -n ${SQUID_CONF:-} && -f $WORK/squid.pid ]] && squid -f "$SQUID_CONF" -k shutdown 2>/dev/null || true
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}

load_avg() { cut -d' ' -f1-3 /proc/loadavg; }
rss_mb() { ps -o rss= -p "$1" 2>/dev/null | awk '{printf "%.0f", $1/1024}'; }
heap_after_gc() { # pid -> "used/committed MB" of the heap right after a full GC (jcmd GC.run; GC.heap_info)
  jcmd "$1" GC.run >/dev/null 2>&1 || true
  jcmd "$1" GC.heap_info 2>/dev/null | awk '/garbage-first heap|def new generation|PSYoungGen|total .* used/ && /used/ {
      for (i = 1; i <= NF; i++) { if ($i == "total") t = $(i+1); if ($i == "used") u = $(i+1) }
      gsub(/[^0-9]/, "", t); gsub(/[^0-9]/, "", u); printf "%.1f MB used / %.0f MB committed", u/1024, t/1024; exit }'
}

wait_http() { # url [tries] : any HTTP answer
  for _ in $(seq 1 "${2:-240}"); do curl -s -o /dev/null "$1" && return 0; sleep 0.5; done
  echo "timeout waiting for $1" >&2; exit 1
}
wait_ready() { # base-url : readiness 200 (https: verified against $WORK/pki/ca.pem)
  local ca=()
  [[ $1 == https:* ]] && ca=(--cacert "$WORK/pki/ca.pem")
  for _ in $(seq 1 "${READY_TRIES:-240}"); do # READY_TRIES: half-seconds to wait (raise it on a loaded machine)
    [[ $(curl -s "${ca[@]}" -o /dev/null -w '%{http_code}' "$1/actuator/health/readiness") == 200 ]] && return 0; sleep 0.5
  done
  echo "not ready: $1" >&2; exit 1
}

start_sink() { # port [access-log 0|1] : nginx, one worker, 200 {"ok":true} to anything, unlimited keep-alive
  local port=$1 log=${2:-0} alog="access_log off;"
  [[ $log == 1 ]] && alog="log_format src '\$msec \$remote_addr'; access_log $WORK/sink-access.log src buffer=4k flush=100ms;"
  mkdir -p "$WORK/nginx-body-$port"
  cat > "$WORK/nginx-$port.conf" <<NGINX
worker_processes 1;
daemon off;
pid $WORK/nginx-$port.pid;
error_log $WORK/nginx-$port-error.log warn;
events { worker_connections 4096; }
http {
  $alog
  client_body_temp_path $WORK/nginx-body-$port;
  keepalive_requests 10000000;
  keepalive_timeout 120s;
  server {
    listen 127.0.0.1:$port reuseport backlog=4096;
    location / { default_type application/json; return 200 '{"ok":true}'; }
  }
}
NGINX
  nginx -c "$WORK/nginx-$port.conf" -p "$WORK" & PIDS+=($!)
  wait_http "http://127.0.0.1:$port/"
}

start_coord() { # port
  java -jar "$COORD_JAR" --port "$1" > "$WORK/coord-$1.log" 2>&1 & PIDS+=($!)
  for _ in $(seq 1 240); do grep -qs "grpc://127.0.0.1:$1/local" "$WORK/coord-$1.log" && return 0; sleep 0.5; done
  echo "coordination node did not start" >&2; exit 1
}

# Borders and Apps run in insecure-local mode (plaintext, unsigned) unless the caller passes egress.trust.*
# arguments; see start_border_tls/start_app_tls and bench/app/mtls.sh for the trust chain.
start_border() { # id port ips coord-port [extra args...] -> BORDER_PID (not waited for)
  local id=$1 port=$2 ips=$3 coord=$4; shift 4
  java -Xmx512m -jar "$BORDER_JAR" --server.port="$port" --egress.border.id="$id" --egress.border.ips="$ips" \
    --egress.border.allow-loopback-ips=true \
    --egress.border.advertised-url="http://127.0.0.1:$port" --egress.security.insecure-local=true \
    --egress.security.internal-token="$INTERNAL_TOKEN" \
    --egress.security.operator-token="$OPERATOR_TOKEN" --egress.ssrf.allowed-ranges=127.0.0.1/32:1024-65535 \
    --egress.registry.connection-string="grpc://127.0.0.1:$coord/local" "$@" > "$WORK/border-$id.log" 2>&1 &
  BORDER_PID=$!; PIDS+=($BORDER_PID)
}

start_app() { # name port tenants-file coord-port [extra args...] -> APP_PID (not waited for)
  local name=$1 port=$2 tenants=$3 coord=$4; shift 4
  java -Xmx512m "${APP_JVM_OPTS[@]}" -jar "$APP_JAR" --server.port="$port" --egress.tenants.file="$tenants" \
    --egress.security.api-tokens="$APP_TOKEN" --egress.security.internal-token="$INTERNAL_TOKEN" \
    --egress.security.insecure-local=true \
    --egress.registry.connection-string="grpc://127.0.0.1:$coord/local" "$@" > "$WORK/app-$name.log" 2>&1 &
  APP_PID=$!; PIDS+=($APP_PID)
}

make_pki() { # names... : a throwaway CA and identities in $WORK/pki (local/LocalPki.java, keytool)
  # A Border name may carry the IPs it announces, border-a@127.0.0.2,127.0.0.3: App routes an announced IP only if
  # the Border's certificate names it (IP SAN).
  local specs=() name ips san
  for name in "$@"; do
    ips=""; [[ $name == *@* ]] && { ips=${name#*@}; name=${name%%@*}; }
    san=""; for ip in ${ips//,/ }; do san+=",ip:$ip"; done
    case $name in
      app*) specs+=("$name=uri:spiffe://egress.local/app/$name") ;;
      *) specs+=("$name=uri:spiffe://egress.local/border/$name,ip:127.0.0.1,dns:localhost$san") ;;
    esac
  done
  java "$LIB_ROOT/local/LocalPki.java" "$WORK/pki" "${specs[@]}" > "$WORK/pki.log" 2>&1 \
    || { cat "$WORK/pki.log" >&2; exit 1; }
}

start_border_tls() { # id port ips coord-port [extra args...] : on the trust chain (make_pki first)
  local id=$1 port=$2 ips=$3 coord=$4; shift 4
  java -Xmx512m -jar "$BORDER_JAR" --server.port="$port" --egress.border.id="$id" --egress.border.ips="$ips" \
    --egress.border.allow-loopback-ips=true \
    --egress.border.advertised-url="https://127.0.0.1:$port" --egress.security.internal-token="$INTERNAL_TOKEN" \
    --egress.trust.certificate="$WORK/pki/$id.pem" --egress.trust.private-key="$WORK/pki/$id-key.pem" \
    --egress.trust.app-ca="$WORK/pki/ca.pem" \
    --egress.security.operator-token="$OPERATOR_TOKEN" --egress.ssrf.allowed-ranges=127.0.0.1/32:1024-65535 \
    --egress.registry.connection-string="grpc://127.0.0.1:$coord/local" "$@" > "$WORK/border-$id.log" 2>&1 &
  BORDER_PID=$!; PIDS+=($BORDER_PID)
}

start_app_tls() { # name port tenants-file coord-port [extra args...] : on the trust chain (make_pki with "app-<name>")
  local name=$1 port=$2 tenants=$3 coord=$4; shift 4
  java -Xmx512m "${APP_JVM_OPTS[@]}" -jar "$APP_JAR" --server.port="$port" --egress.tenants.file="$tenants" \
    --egress.security.api-tokens="$APP_TOKEN" --egress.security.internal-token="$INTERNAL_TOKEN" \
    --egress.trust.certificate="$WORK/pki/app-$name.pem" --egress.trust.private-key="$WORK/pki/app-$name-key.pem" \
    --egress.trust.border-ca="$WORK/pki/ca.pem" \
    --egress.registry.connection-string="grpc://127.0.0.1:$coord/local" "$@" > "$WORK/app-$name.log" 2>&1 &
  APP_PID=$!; PIDS+=($APP_PID)
}
APP_JVM_OPTS=()

wait_tenant_available() { # app-base-url tenant
  for _ in $(seq 1 "${READY_TRIES:-240}"); do
    curl -s -H "Authorization: Bearer $APP_TOKEN" "$1/v1/tenants/$2/egress" 2>/dev/null | grep -q '"available":true' && return 0
    sleep 0.5
  done
  echo "App $1 never saw a Border for $2; logs in $WORK" >&2; exit 1
}

start_squid() { # port src-ip sink-port : forward proxy with tcp_outgoing_address
  SQUID_CONF="$WORK/squid.conf"
  cat > "$SQUID_CONF" <<SQUID
http_port 127.0.0.1:$1
visible_hostname system-bench
acl loopback src 127.0.0.0/8
http_access allow loopback
http_access deny all
tcp_outgoing_address $2
cache deny all
cache_mem 8 MB
access_log none
cache_store_log none
cache_log $WORK/squid-cache.log
pid_filename $WORK/squid.pid
coredump_dir $WORK
cache_effective_user proxy
server_persistent_connections on
client_persistent_connections on
shutdown_lifetime 1 seconds
max_filedescriptors 65536
SQUID
  squid -f "$SQUID_CONF" -N > "$WORK/squid.out" 2>&1 & PIDS+=($!)
  for _ in $(seq 1 60); do
    [[ $(curl -s -o /dev/null -w '%{http_code}' -x "http://127.0.0.1:$1" "http://127.0.0.1:$3/") == 200 ]] && return 0
    sleep 0.5
  done
  echo "squid did not start" >&2; exit 1
}

ticks() { # pid... -> summed utime+stime in clock ticks (all threads; nginx: master and its worker)
  local t=0 p
  for p in "$@"; do
    [[ -r /proc/$p/stat ]] || continue
    t=$(( t + $(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$p/stat") ))
  done
  echo "$t"
}

profile_jvm() { # start|stop pid collapsed-file : async-profiler (PROFILE=/path/libasyncProfiler.so) loaded into a running JVM
  [[ -n ${PROFILE:-} ]] || return 0
  if [[ $1 == start ]]; then
    jcmd "$2" JVMTI.agent_load "$PROFILE" '"start,event=itimer,interval=1ms"' >&2
  else
    jcmd "$2" JVMTI.agent_load "$PROFILE" "\"stop,file=$3,collapsed\"" >&2
  fi
}
