# syntax=docker/dockerfile:1.7
# One image recipe for both Spring Boot services, selected with a build argument:
#   docker build --build-arg SERVICE=app-service    -t egress-platform/app-service:0.3.0 .
#   docker build --build-arg SERVICE=border-service -t egress-platform/border-service:0.3.0 .
# Stages: build (Maven, from source) -> extract (Spring Boot layers) -> runtime (JRE, non-root).
# Layers are copied least-changing first, so a code change rebuilds only the last, small layer.

ARG JDK_IMAGE=eclipse-temurin:17.0.15_6-jdk-noble
# The runtime is Java 25 for its ahead-of-time cache (below); the code is built for, and runs on, Java 17 or newer.
# JRE_IMAGE=eclipse-temurin:17.0.15_6-jre-noble builds the same image with an AppCDS archive instead.
ARG JRE_IMAGE=eclipse-temurin:25.0.3_9-jre-noble

FROM ${JDK_IMAGE} AS build
ARG SERVICE=app-service
RUN case "${SERVICE}" in app-service|border-service) ;; \
      *) echo "SERVICE must be app-service or border-service, got '${SERVICE}'" >&2; exit 1 ;; esac
WORKDIR /src
# The whole (filtered, see .dockerignore) source tree: Maven reads every module POM of the reactor,
# even with -pl, so modules added later need no change here. Dependencies stay in the cache mount.
COPY . .
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -ntp -DskipTests package -pl "${SERVICE}" -am

FROM ${JDK_IMAGE} AS extract
ARG SERVICE=app-service
WORKDIR /extract
COPY --from=build /src/${SERVICE}/target/${SERVICE}.jar app.jar
# dependencies / snapshot-dependencies / application (app.jar, whose manifest Class-Path names lib/*.jar).
# Plain jars on the class path, not JarLauncher: class-data sharing archives classes from jar files only.
RUN java -Djarmode=tools -jar app.jar extract --layers --destination layers

FROM ${JRE_IMAGE} AS runtime
ARG SERVICE=app-service
LABEL org.opencontainers.image.title="egress-platform ${SERVICE}"
# curl serves the HEALTHCHECK only. A fixed numeric uid lets Kubernetes verify runAsNonRoot.
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 egress \
 && useradd --system --uid 10001 --gid 10001 --home-dir /app --no-create-home --shell /usr/sbin/nologin egress
WORKDIR /app
COPY --from=extract /extract/layers/dependencies/ ./
COPY --from=extract /extract/layers/snapshot-dependencies/ ./
COPY --from=extract /extract/layers/application/ ./
# JVM defaults (docs/configuration/jvm.md): a small serial-collected heap that grows on demand up to 45 % of
# the container's memory, and caps on direct memory, code cache and metaspace, so that the caps together
# stay inside the limit. The chart replaces JAVA_TOOL_OPTIONS per service (app.jvmOptions, border.jvmOptions).
ENV JAVA_TOOL_OPTIONS="-XX:+UseSerialGC -Xms32m -XX:MaxRAMPercentage=45 -XX:MaxDirectMemorySize=128m -XX:ReservedCodeCacheSize=96m -XX:MaxMetaspaceSize=128m -XX:+ExitOnOutOfMemoryError"
# Start-up and warm-up caches: one training start loads the classes of a start-up and writes them to a cache
# that every later start maps instead of parsing, verifying and linking them again. On Java 25 or newer it is an
# ahead-of-time cache (JEP 483/514/515: classes loaded and linked, plus the method profiles of the training),
# app.aot; on an older runtime an AppCDS archive, app.jsa. Measured in bench/RESULTS.md ("Issue 27: fast from the
# first minute"). The training refreshes the Spring context and exits before anything starts (no listener, no
# registry session; a watcher's connect attempt to the unreachable placeholder registry only logs). It runs here,
# after the COPY, because a cache is valid only for these exact jars, and with the image's JAVA_TOOL_OPTIONS. The
# entry point reads the option naming the cache from jvm-cache.args; a JVM that cannot use the cache (other
# options replacing the collector, say) warns and starts without it. The build maps the cache once strictly
# (-Xshare:on / -XX:AOTMode=on) and fails if it cannot: a truncated AppCDS archive crashes Java 17 at every start
# instead of being ignored.
RUN printf 'sharedPool: []\ntenants: []\n' > /tmp/cache-tenants.yaml \
 && major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p') \
 && if [ "${major%%.*}" -ge 25 ]; then \
      train="-XX:AOTCacheOutput=/app/app.aot"; cache=/app/app.aot; use="-XX:AOTCache=/app/app.aot"; \
    else \
      train="-XX:ArchiveClassesAtExit=/app/app.jsa -Xlog:cds=off -Xlog:cds+dynamic=info"; cache=/app/app.jsa; \
      use="-XX:SharedArchiveFile=/app/app.jsa"; \
    fi \
 && if ! java $train -Dspring.context.exit=onRefresh -jar app.jar \
        --egress.registry.connection-string=grpc://127.0.0.1:1/local --egress.security.insecure-local=true \
        --egress.security.internal-token=cds-training-only-token --egress.security.api-tokens=cds-training-only-token \
        --egress.tenants.file=/tmp/cache-tenants.yaml --egress.border.id=cds-training \
        --egress.border.ips=127.0.0.1 --egress.border.allow-loopback-ips=true \
        --egress.border.advertised-url=http://127.0.0.1:8181 \
        > /tmp/cache-training.log 2>&1 \
      || ! test -s "$cache"; then tail -n 40 /tmp/cache-training.log >&2; exit 1; fi \
 && strict=$(if [ "$cache" = /app/app.aot ]; then echo -XX:AOTMode=on; else echo -Xshare:on; fi) \
 && if ! java $use $strict -cp app.jar -version > /tmp/cache-check.log 2>&1; then \
      cat /tmp/cache-check.log >&2; exit 1; fi \
 && echo "$use" > /app/jvm-cache.args \
 && rm -f /tmp/cache-tenants.yaml /tmp/cache-training.log /tmp/cache-check.log \
 && chmod 0444 "$cache" /app/jvm-cache.args
USER 10001:10001
# App listens on 8080, a Border on 8181 (set SERVER_PORT=8181 for it). The health check asks the management
# port if one is set (always plain http), else SERVER_PORT: over http (App, a Border without the trust
# chain), and over https when that fails (a Border on the trust chain serves https on its port). -k:
# the Border's certificate names its SPIFFE id, not 127.0.0.1, and the check sends nothing secret.
ENV SERVER_PORT=8080
EXPOSE 8080 8181
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD port="${MANAGEMENT_SERVER_PORT:-$SERVER_PORT}"; \
      curl -fsS --max-time 2 -o /dev/null "http://127.0.0.1:${port}/actuator/health/readiness" \
      || curl -fsSk --max-time 2 -o /dev/null "https://127.0.0.1:${port}/actuator/health/readiness" || exit 1
# Exec form: java is PID 1 and receives SIGTERM directly (Borders drain on SIGTERM). The cache is named in an
# argument file, not in JAVA_TOOL_OPTIONS, so that replacing the JVM options keeps it.
ENTRYPOINT ["java", "@/app/jvm-cache.args", "-jar", "app.jar"]
