# syntax=docker/dockerfile:1.7
# One image recipe for both Spring Boot services, selected with a build argument:
#   docker build --build-arg SERVICE=app-service    -t egress-platform/app-service:0.1.0 .
#   docker build --build-arg SERVICE=border-service -t egress-platform/border-service:0.1.0 .
# Stages: build (Maven, from source) -> extract (Spring Boot layers) -> runtime (JRE, non-root).
# Layers are copied least-changing first, so a code change rebuilds only the last, small layer.

ARG JDK_IMAGE=eclipse-temurin:17.0.15_6-jdk-noble
ARG JRE_IMAGE=eclipse-temurin:17.0.15_6-jre-noble

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
# dependencies / spring-boot-loader / snapshot-dependencies / application, runnable with JarLauncher.
RUN java -Djarmode=tools -jar app.jar extract --layers --launcher --destination layers

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
COPY --from=extract /extract/layers/spring-boot-loader/ ./
COPY --from=extract /extract/layers/snapshot-dependencies/ ./
COPY --from=extract /extract/layers/application/ ./
USER 10001:10001
# App listens on 8080, a Border on 8181 (set SERVER_PORT=8181 for it); the health check follows SERVER_PORT.
ENV SERVER_PORT=8080 \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
EXPOSE 8080 8181
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD curl -fsS -o /dev/null "http://127.0.0.1:${SERVER_PORT}/actuator/health/readiness" || exit 1
# Exec form: java is PID 1 and receives SIGTERM directly (Borders drain on SIGTERM).
ENTRYPOINT ["java", "org.springframework.boot.loader.launch.JarLauncher"]
