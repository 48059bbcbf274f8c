# Sourced by run-local.sh once the jars are built: how the Borders and App are launched (SERVICE_JAVA,
# BORDER_LAUNCH, APP_LAUNCH). Each service starts from its jar extracted into .run-local/aot/<service>/ with a
# start-up cache, as the image does (Dockerfile; bench/RESULTS.md, "Issue 27: fast from the first minute" and
# "Issue 36"): on Java 25 or newer an ahead-of-time cache (JEP 483/514: classes loaded and linked, method
# profiles), on Java 17-24 an AppCDS archive (-XX:ArchiveClassesAtExit: the classes of a start, parsed and
# verified once). The cache is trained by a start that exits when the Spring context is refreshed (no listener, no
# registry session), once per build: it is rebuilt whenever the jar, the java binary or the JVM options differ from
# the ones it was trained with (its .stamp file). The two trainings run side by side.
#
# A start never depends on the cache: a failed extract or training starts the fat jar, and a cache the JVM cannot
# map (stale, other options) only makes it warn and start without it (-Xshare:auto and AOTMode=auto, the JVMs'
# defaults). RUN_LOCAL_START_CACHE=off starts the fat jars without any cache. RUN_LOCAL_JAVA picks the JVM of the
# Borders and App (default: the one run-local.sh found). Java 17 stays the minimum.

SERVICE_JAVA=${RUN_LOCAL_JAVA:-$JAVA}
BORDER_LAUNCH=(-jar "$BORDER_JAR")
APP_LAUNCH=(-jar "$APP_JAR")

# start_cache_kind: sets START_CACHE_KIND to aot or cds for SERVICE_JAVA
start_cache_kind() {
  local major
  major=$("$SERVICE_JAVA" -version 2>&1 | sed -n 's/.*version "\([0-9][0-9]*\).*/\1/p')
  [ -n "$major" ] && [ "$major" -ge 17 ] \
    || die "the JVM of the Borders and App must be Java 17 or newer (found: $("$SERVICE_JAVA" -version 2>&1 | head -n 1))."
  if [ "$major" -ge 25 ]; then START_CACHE_KIND=aot; else START_CACHE_KIND=cds; fi
}

# start_cache_stamp JAR: what a cache is valid for (the jar's identity, the JVM, the JVM options)
start_cache_stamp() {
  printf '%s\n' "$(stat -c '%s %Y' "$1")" "$("$SERVICE_JAVA" -version 2>&1 | tr '\n' ' ')" \
    "${JAVA_OPTS[*]+${JAVA_OPTS[*]}}"
}

# start_cache_train NAME JAR KIND: (re)trains NAME's cache if its stamp differs; never fails
start_cache_train() {
  local name=$1 jar=$2 kind=$3 dir="$RUN_DIR/aot/$1" cache="$RUN_DIR/aot/$1.$3" log="$LOG_DIR/aot-$1.log"
  local stamp train
  stamp=$(start_cache_stamp "$jar")
  [ -s "$cache" ] && [ "$(cat "$cache.stamp" 2>/dev/null)" = "$stamp" ] && return 0
  say "training the start-up cache of $name ($kind; once per build; log: .run-local/logs/aot-$name.log)"
  rm -rf "$dir" "$RUN_DIR/aot/$name".*
  mkdir -p "$dir"
  "$SERVICE_JAVA" -Djarmode=tools -jar "$jar" extract --destination "$dir" >"$log" 2>&1 || return 0
  case $kind in
    aot) train=(-XX:AOTCacheOutput="$cache") ;;
    cds) train=(-XX:ArchiveClassesAtExit="$cache" -Xlog:cds=off -Xlog:cds+dynamic=info) ;;
  esac
  # Exits at refresh: no listener, no registry session (the placeholder registry is never reached).
  "$SERVICE_JAVA" ${JAVA_OPTS[@]+"${JAVA_OPTS[@]}"} "${train[@]}" -Dspring.context.exit=onRefresh \
    -jar "$dir/$(basename "$jar")" \
    --egress.registry.connection-string=grpc://127.0.0.1:1/local --egress.security.insecure-local=true \
    --egress.security.internal-token=aot-training-only-token --egress.security.api-tokens=aot-training-only-token \
    --egress.tenants.file="$TENANTS_FILE" --egress.border.id=aot-training --egress.border.ips=127.0.0.1 \
    --egress.border.allow-loopback-ips=true --egress.border.advertised-url=http://127.0.0.1:8181 \
    >>"$log" 2>&1 || true
  [ -s "$cache" ] && printf '%s\n' "$stamp" >"$cache.stamp"
  return 0
}

# start_cache_use KIND CACHE: the JVM option that starts from CACHE
start_cache_use() {
  case $1 in
    aot) printf '%s\n' -XX:AOTCache="$2" ;;
    cds) printf '%s\n' -XX:SharedArchiveFile="$2" ;;
  esac
}

# start_cache_launch NAME JAR KIND: prints the launch arguments with NAME's cache, nothing if there is none or the
# JVM cannot map it. The check maps it strictly (a JVM that is told to use a cache it cannot map refuses to start,
# and a truncated AppCDS archive even crashes Java 17 instead of being ignored), on the class path it was trained on.
start_cache_launch() {
  local name=$1 jar=$2 kind=$3 cache="$RUN_DIR/aot/$1.$3" extracted="$RUN_DIR/aot/$1/$(basename "$2")" strict
  [ -s "$cache" ] && [ -s "$cache.stamp" ] && [ -f "$extracted" ] || return 0
  case $kind in aot) strict=-XX:AOTMode=on ;; cds) strict=-Xshare:on ;; esac
  if ! "$SERVICE_JAVA" ${JAVA_OPTS[@]+"${JAVA_OPTS[@]}"} $(start_cache_use "$kind" "$cache") "$strict" \
      -cp "$extracted" -version >"$LOG_DIR/aot-$name-check.log" 2>&1; then
    say "the start-up cache of $name cannot be used (.run-local/logs/aot-$name-check.log); it starts from its fat jar" >&2
    rm -f "$cache.stamp" # trained again at the next start
    return 0
  fi
  start_cache_use "$kind" "$cache"
  printf '%s\n' -jar "$extracted"
}

start_caches() {
  local kind launch border app
  [ -x "$(command -v "$SERVICE_JAVA")" ] || die "RUN_LOCAL_JAVA=$SERVICE_JAVA is not an executable java binary."
  start_cache_kind
  kind=$START_CACHE_KIND
  if [ "${RUN_LOCAL_START_CACHE:-on}" = off ]; then
    say "Borders and App from the fat jars, without a start-up cache (RUN_LOCAL_START_CACHE=off)"
    return 0
  fi
  mkdir -p "$RUN_DIR/aot"
  start_cache_train border "$BORDER_JAR" "$kind" & border=$!
  start_cache_train app "$APP_JAR" "$kind" & app=$!
  wait "$border" "$app" || true
  mapfile -t launch < <(start_cache_launch border "$BORDER_JAR" "$kind")
  [ ${#launch[@]} -eq 0 ] || BORDER_LAUNCH=("${launch[@]}")
  mapfile -t launch < <(start_cache_launch app "$APP_JAR" "$kind")
  [ ${#launch[@]} -eq 0 ] || APP_LAUNCH=("${launch[@]}")
  if [ "${BORDER_LAUNCH[0]}" = -jar ] || [ "${APP_LAUNCH[0]}" = -jar ]; then
    say "no start-up cache for some service (see .run-local/logs/aot-*.log); it starts from its fat jar"
  fi
  say "Borders and App on $("$SERVICE_JAVA" -version 2>&1 | head -n 1), start-up caches ($kind) in .run-local/aot/"
}

start_caches
