# Sourced by run-local.sh once the jars are built: how the Borders and App are launched (SERVICE_JAVA,
# BORDER_LAUNCH, APP_LAUNCH). Without RUN_LOCAL_JAVA: $JAVA and the fat jars, as always. With RUN_LOCAL_JAVA (a
# java binary) of Java 25 or newer: each service jar is extracted into .run-local/aot/<service>/ and started with
# an ahead-of-time cache (JEP 483/514: classes loaded and linked, method profiles), trained once per build by a
# start that exits when the Spring context is refreshed, as the image does (bench/RESULTS.md, "Issue 27: fast from
# the first minute"). An older RUN_LOCAL_JAVA runs the fat jars without a cache; a failed training falls back to
# the fat jar too. Java 17 stays the minimum.

SERVICE_JAVA=$JAVA
BORDER_LAUNCH=(-jar "$BORDER_JAR")
APP_LAUNCH=(-jar "$APP_JAR")

# aot_launch NAME JAR: trains NAME's cache if the jar is newer than it; sets AOT_LAUNCH (empty if none)
aot_launch() {
  local name=$1 jar=$2 dir="$RUN_DIR/aot/$1" cache="$RUN_DIR/aot/$1.aot" log="$LOG_DIR/aot-$1.log"
  AOT_LAUNCH=()
  if [ ! -s "$cache" ] || [ "$jar" -nt "$cache" ]; then
    say "training the ahead-of-time cache of $name (once per build; log: .run-local/logs/aot-$name.log)"
    rm -rf "$dir" "$cache"
    mkdir -p "$dir"
    "$SERVICE_JAVA" -Djarmode=tools -jar "$jar" extract --destination "$dir" >"$log" 2>&1 || return 0
    # Exits at refresh: no listener, no registry session (the placeholder registry is never reached).
    "$SERVICE_JAVA" ${JAVA_OPTS[@]+"${JAVA_OPTS[@]}"} -XX:AOTCacheOutput="$cache" -Dspring.context.exit=onRefresh \
      -jar "$dir/$(basename "$jar")" \
      --egress.registry.connection-string=grpc://127.0.0.1:1/local --egress.security.insecure-local=true \
      --egress.security.internal-token=aot-training-only-token --egress.security.api-tokens=aot-training-only-token \
      --egress.tenants.file="$TENANTS_FILE" --egress.border.id=aot-training --egress.border.ips=127.0.0.1 \
      --egress.border.allow-loopback-ips=true --egress.border.advertised-url=http://127.0.0.1:8181 \
      >>"$log" 2>&1 || true
    [ -s "$cache" ] || { say "no ahead-of-time cache for $name (see the log); starting the fat jar"; return 0; }
  fi
  AOT_LAUNCH=(-XX:AOTCache="$cache" -jar "$dir/$(basename "$jar")")
}

if [ -n "${RUN_LOCAL_JAVA:-}" ]; then
  [ -x "$RUN_LOCAL_JAVA" ] || die "RUN_LOCAL_JAVA=$RUN_LOCAL_JAVA is not an executable java binary."
  SERVICE_JAVA=$RUN_LOCAL_JAVA
  service_major=$("$SERVICE_JAVA" -version 2>&1 | sed -n 's/.*version "\([0-9][0-9]*\).*/\1/p')
  [ -n "$service_major" ] && [ "$service_major" -ge 17 ] \
    || die "RUN_LOCAL_JAVA must be Java 17 or newer (found: $("$SERVICE_JAVA" -version 2>&1 | head -n 1))."
  if [ "$service_major" -ge 25 ]; then
    aot_launch border "$BORDER_JAR"
    [ ${#AOT_LAUNCH[@]} -eq 0 ] || BORDER_LAUNCH=("${AOT_LAUNCH[@]}")
    aot_launch app "$APP_JAR"
    [ ${#AOT_LAUNCH[@]} -eq 0 ] || APP_LAUNCH=("${AOT_LAUNCH[@]}")
    say "Borders and App on Java $service_major ($SERVICE_JAVA), with the ahead-of-time caches in .run-local/aot/"
  else
    say "Borders and App on Java $service_major ($SERVICE_JAVA); an ahead-of-time cache needs Java 25 or newer"
  fi
fi
