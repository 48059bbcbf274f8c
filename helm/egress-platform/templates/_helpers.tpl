{{/* Chart name, truncated to the 63 characters a DNS label allows. */}}
{{- define "egress.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Resource name prefix: release + chart unless the release name already contains the chart name. */}}
{{- define "egress.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Labels every resource carries. */}}
{{- define "egress.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "egress.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: egress-platform
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Labels of pod templates: no chart version or app version, so an upgrade that changes nothing in a
     workload restarts nothing; pass (dict "ctx" $ "component" "app|border"). */}}
{{- define "egress.podLabels" -}}
{{ include "egress.selectorLabels" . }}
app.kubernetes.io/part-of: egress-platform
{{- with .ctx.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Immutable selector labels; pass (dict "ctx" $ "component" "app|border"). */}}
{{- define "egress.selectorLabels" -}}
app.kubernetes.io/name: {{ include "egress.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* Image reference for a component; pass (dict "ctx" $ "image" .Values.<component>.image). */}}
{{- define "egress.image" -}}
{{- $registry := default .image.registry .ctx.Values.global.imageRegistry -}}
{{- $prefix := ternary "" (printf "%s/" $registry) (empty $registry) -}}
{{- if .image.digest -}}
{{- printf "%s%s@%s" $prefix .image.repository .image.digest -}}
{{- else -}}
{{- printf "%s%s:%s" $prefix .image.repository (toString .image.tag) -}}
{{- end -}}
{{- end -}}

{{- define "egress.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "egress.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "egress.secretName" -}}
{{- default (printf "%s-tokens" (include "egress.fullname" .)) .Values.auth.existingSecret -}}
{{- end -}}

{{- define "egress.tenantsConfigMapName" -}}
{{- default (printf "%s-tenants" (include "egress.fullname" .)) .Values.app.tenants.existingConfigMap -}}
{{- end -}}

{{/*
Log format of both services: Spring Boot's structured logging (one JSON object a line, Elastic Common
Schema) when logging.format is json; the default text pattern otherwise.
*/}}
{{- define "egress.loggingEnv" -}}
{{- if eq .Values.logging.format "json" }}
- name: LOGGING_STRUCTURED_FORMAT_CONSOLE
  value: ecs
{{- end }}
{{- end }}

{{/* The registry token Secret of a component: App's own read-only one, the Borders' for Borders; App never gets the
     Borders' write token (a token for the Borders and none for App fails the render). Pass (dict "ctx" $ "component" "app"|"border"). */}}
{{- define "egress.registryTokenSecret" -}}
{{- $registry := .ctx.Values.registry -}}
{{- if eq .component "app" -}}
{{- if and $registry.tokenSecret.name (not $registry.appTokenSecret.name) -}}
{{- fail "registry.appTokenSecret.name: required when registry.tokenSecret is set (expected: a read-only YDB token for App, which never writes the registry; App must not hold the Borders' write token)" -}}
{{- end -}}
{{- toJson $registry.appTokenSecret -}}
{{- else -}}
{{- toJson $registry.tokenSecret -}}
{{- end -}}
{{- end -}}

{{/* Registry properties as environment variables (Spring relaxed binding); pass (dict "ctx" $ "component" ...). */}}
{{- define "egress.registryEnv" -}}
{{- $v := .ctx.Values -}}
{{- $token := include "egress.registryTokenSecret" . | fromJson -}}
- name: EGRESS_REGISTRY_CONNECTIONSTRING
  value: {{ $v.registry.connectionString | quote }}
- name: EGRESS_REGISTRY_NODE
  value: {{ $v.registry.node | quote }}
- name: EGRESS_REGISTRY_SEMAPHORE
  value: {{ $v.registry.semaphore | quote }}
- name: EGRESS_REGISTRY_SESSIONTIMEOUT
  value: {{ $v.registry.sessionTimeout | quote }}
{{- if $token.name }}
- name: EGRESS_REGISTRY_TOKENFILE
  value: /etc/egress/registry-token/{{ $token.key }}
{{- end }}
{{- with $v.registry.caSecret.name }}
- name: EGRESS_REGISTRY_CACERTIFICATES
  value: /etc/egress/registry-ca/{{ $v.registry.caSecret.key }}
{{- end }}
{{- end -}}

{{/* Mounts of the registry token and CA Secrets (directory mounts, so kubelet updates a rotated token in place); pass (dict "ctx" $ "component" ...). */}}
{{- define "egress.registryVolumeMounts" -}}
{{- $token := include "egress.registryTokenSecret" . | fromJson -}}
{{- if $token.name }}
- name: registry-token
  mountPath: /etc/egress/registry-token
  readOnly: true
{{- end }}
{{- if .ctx.Values.registry.caSecret.name }}
- name: registry-ca
  mountPath: /etc/egress/registry-ca
  readOnly: true
{{- end }}
{{- end -}}

{{/* Volumes for egress.registryVolumeMounts; pass (dict "ctx" $ "component" ...). */}}
{{- define "egress.registryVolumes" -}}
{{- with include "egress.registryTokenSecret" . | fromJson }}
{{- if .name }}
- name: registry-token
  secret:
    secretName: {{ .name }}
    items:
      - key: {{ .key }}
        path: {{ .key }}
{{- end }}
{{- end }}
{{- with .ctx.Values.registry.caSecret }}
{{- if .name }}
- name: registry-ca
  secret:
    secretName: {{ .name }}
    items:
      - key: {{ .key }}
        path: {{ .key }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Durable delivery's store as App's environment (Spring relaxed binding); nothing when it is off. Its own token:
     App's registry token is read-only, and the store writes tables and acquires semaphores. Pass $. */}}
{{- define "egress.deliveryEnv" -}}
{{- $delivery := .Values.app.delivery -}}
{{- if $delivery.enabled }}
{{- $store := $delivery.store -}}
{{- if and .Values.registry.tokenSecret.name (not $store.connectionString) (not $store.tokenSecret.name) -}}
{{- fail "app.delivery.store.tokenSecret.name: required when registry.tokenSecret is set and the delivery store uses the registry's database (expected: a YDB token that may read and write the delivery tables and acquire the buckets' semaphores; App's registry token is read-only). Or set app.delivery.enabled=false" -}}
{{- end }}
- name: EGRESS_DELIVERY_STORE_CONNECTIONSTRING
  value: {{ default .Values.registry.connectionString $store.connectionString | quote }}
- name: EGRESS_DELIVERY_STORE_TABLEPREFIX
  value: {{ $store.tablePrefix | quote }}
- name: EGRESS_DELIVERY_BUCKETS_NODE
  value: {{ $delivery.buckets.node | quote }}
{{- with $store.tokenSecret.name }}
- name: EGRESS_DELIVERY_STORE_TOKENFILE
  value: /etc/egress/delivery-store-token/{{ $store.tokenSecret.key }}
{{- end }}
{{- end }}
{{- end -}}

{{/* A security context without the chart-only "enabled" switch; pass the values object. */}}
{{- define "egress.securityContext" -}}
{{- toYaml (omit . "enabled") -}}
{{- end -}}

{{/* startup/liveness/readiness probes on the actuator health groups; pass the component values. They use
     the management port, which stays plain http when the Border serves https on its main port (the
     trust chain's TLS applies to server.port only; checked against a real Border, docs/kubernetes.md). */}}
{{- define "egress.probes" -}}
{{- /* probeScheme: HTTPS when the component serves TLS on its management port (App with app.tls). */ -}}
{{- $scheme := .probeScheme | default "HTTP" -}}
{{- if .startupProbe.enabled }}
startupProbe:
  httpGet:
    path: /actuator/health/liveness
    port: management
    scheme: {{ $scheme }}
  {{- toYaml (omit .startupProbe "enabled") | nindent 2 }}
{{- end }}
{{- if .livenessProbe.enabled }}
livenessProbe:
  httpGet:
    path: /actuator/health/liveness
    port: management
    scheme: {{ $scheme }}
  {{- toYaml (omit .livenessProbe "enabled") | nindent 2 }}
{{- end }}
{{- if .readinessProbe.enabled }}
readinessProbe:
  httpGet:
    path: /actuator/health/readiness
    port: management
    scheme: {{ $scheme }}
  {{- toYaml (omit .readinessProbe "enabled") | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Rejects Border instance lists that would collide: duplicate ids or an IP on two Borders. */}}
{{- define "egress.validateBorders" -}}
{{- $ids := dict -}}
{{- $ips := dict -}}
{{- range .Values.border.instances -}}
{{- if hasKey $ids .borderId -}}
{{- fail (printf "border.instances: borderId %q appears twice (expected: unique ids)" .borderId) -}}
{{- end -}}
{{- $_ := set $ids .borderId true -}}
{{- $owner := .borderId -}}
{{- range .ips -}}
{{- /* bind=public: the public address is the dedicated IP's identity */ -}}
{{- $ip := last (splitList "=" .) -}}
{{- if hasKey $ips $ip -}}
{{- fail (printf "border.instances: IP %s is on both %s and %s (expected: each dedicated IP on one Border)" $ip (get $ips $ip) $owner) -}}
{{- end -}}
{{- $_ := set $ips $ip $owner -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Rejects tenant policies App would refuse (same rules as App's tenants file parser). */}}
{{- define "egress.validateTenants" -}}
{{- $policy := .Values.app.tenants.policy -}}
{{- $shared := $policy.sharedPool | default list -}}
{{- $ids := dict -}}
{{- range $policy.tenants -}}
{{- if hasKey $ids .id -}}
{{- fail (printf "app.tenants.policy: tenant %q is defined twice (expected: unique ids)" .id) -}}
{{- end -}}
{{- $_ := set $ids .id true -}}
{{- $tenant := .id -}}
{{- range .dedicatedIps -}}
{{- if has . $shared -}}
{{- fail (printf "app.tenants.policy: %s is dedicated to %s and also in sharedPool (expected: disjoint)" . $tenant) -}}
{{- end -}}
{{- end -}}
{{- if and (not .dedicatedIps) (not $shared) -}}
{{- fail (printf "app.tenants.policy: tenant %s has no dedicatedIps and sharedPool is empty (expected: at least one IP)" $tenant) -}}
{{- end -}}
{{- end -}}
{{- end -}}


{{/* Values without a working default: the chart refuses to render rather than deploy pods that can
     never start (an unpublished image, a YDB address most clusters lack). Pass the root context. */}}
{{- define "egress.validateRequired" -}}
{{- if not .Values.registry.connectionString -}}
{{- fail "registry.connectionString is required: the YDB endpoint and database both services use, e.g. grpc://ydb-storage.ydb.svc.cluster.local:2135/Root/database (see docs/kubernetes.md, YDB)" -}}
{{- end -}}
{{- if .Values.app.enabled -}}
{{- include "egress.validateImage" (dict "name" "app.image" "image" .Values.app.image) -}}
{{- end -}}
{{- if .Values.border.instances -}}
{{- include "egress.validateImage" (dict "name" "border.image" "image" .Values.border.image) -}}
{{- end -}}
{{- include "egress.validateTrust" . -}}
{{- end -}}

{{- define "egress.validateImage" -}}
{{- if not .image.repository -}}
{{- fail (printf "%s.repository is required: no image is published for this project; build it with the repository's Dockerfile, push it to your registry and set %s.repository and %s.tag (or .digest)" .name .name .name) -}}
{{- end -}}
{{- if and (not .image.tag) (not .image.digest) -}}
{{- fail (printf "%s.tag or %s.digest is required (expected: the version you pushed; never latest)" .name .name) -}}
{{- end -}}
{{- end -}}

{{/* A duration as Spring Boot parses it, in milliseconds: a number and one unit (500ms, 45s, 2m, 1h,
     1d; ns and us round down) or ISO-8601 (PT1M30S, P1D, PT0.5S). values.schema.json admits only these. */}}
{{- define "egress.millis" -}}
{{- $value := toString . -}}
{{- if hasPrefix "P" $value -}}
{{- $days := regexFind "[0-9]+D" $value | trimSuffix "D" | default "0" | atoi -}}
{{- $time := regexFind "T.*$" $value -}}
{{- $hours := regexFind "[0-9]+H" $time | trimSuffix "H" | default "0" | atoi -}}
{{- $minutes := regexFind "[0-9]+M" $time | trimSuffix "M" | default "0" | atoi -}}
{{- $seconds := regexFind "[0-9.]+S" $time | trimSuffix "S" | default "0" | float64 -}}
{{- add (mul (add (mul (add (mul $days 24) $hours) 60) $minutes) 60000) (mulf $seconds 1000 | floor | int) -}}
{{- else -}}
{{- $number := regexFind "^[0-9]+" $value | atoi -}}
{{- $unit := regexReplaceAll "^[0-9]+" $value "" -}}
{{- $factors := dict "ms" 1 "s" 1000 "m" 60000 "h" 3600000 "d" 86400000 -}}
{{- if has $unit (list "ns" "us") -}}
{{- div $number (ternary 1000000 1000 (eq $unit "ns")) -}}
{{- else if not (hasKey $factors $unit) -}}
{{- fail (printf "%q: not a duration (expected: a number and one of ms, s, m, h, d, e.g. 45s, or ISO-8601 such as PT1M30S)" $value) -}}
{{- else -}}
{{- mul $number (get $factors $unit) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* App stops without cutting deliveries: it keeps serving through the preStop delay while its endpoints
     leave the Services, then its shutdown phase outlasts the longest delivery, and Kubernetes waits for
     both before SIGKILL. */}}
{{- define "egress.validateAppShutdown" -}}
{{- $app := .Values.app -}}
{{- $attempt := include "egress.millis" $app.dispatch.attemptTimeout | atoi -}}
{{- $overall := include "egress.millis" $app.dispatch.overallTimeout | atoi -}}
{{- $phase := include "egress.millis" $app.shutdown.phaseTimeout | atoi -}}
{{- $preStop := mul $app.shutdown.preStopSeconds 1000 -}}
{{- $grace := mul $app.terminationGracePeriodSeconds 1000 -}}
{{- if gt $attempt $overall -}}
{{- fail (printf "app.dispatch.attemptTimeout %s is above app.dispatch.overallTimeout %s (expected: one attempt fits in a delivery)" $app.dispatch.attemptTimeout $app.dispatch.overallTimeout) -}}
{{- end -}}
{{- if le $phase $overall -}}
{{- fail (printf "app.shutdown.phaseTimeout %s must be above app.dispatch.overallTimeout %s, or a stopping App cuts deliveries in flight" $app.shutdown.phaseTimeout $app.dispatch.overallTimeout) -}}
{{- end -}}
{{- if le $grace (add $preStop $phase) -}}
{{- fail (printf "app.terminationGracePeriodSeconds %d must be above app.shutdown.preStopSeconds + app.shutdown.phaseTimeout (%ds + %s), or Kubernetes kills App before it has finished" (int $app.terminationGracePeriodSeconds) (int $app.shutdown.preStopSeconds) $app.shutdown.phaseTimeout) -}}
{{- end -}}
{{- end -}}

{{/* A Border drains inside its shutdown phase, and Kubernetes waits for the phase before SIGKILL. */}}
{{- define "egress.validateBorderShutdown" -}}
{{- $border := .Values.border -}}
{{- $drain := include "egress.millis" $border.drainTimeout | atoi -}}
{{- $phase := include "egress.millis" $border.shutdownPhaseTimeout | atoi -}}
{{- if le $phase $drain -}}
{{- fail (printf "border.shutdownPhaseTimeout %s must be above border.drainTimeout %s (the drain runs inside the shutdown phase)" $border.shutdownPhaseTimeout $border.drainTimeout) -}}
{{- end -}}
{{- if le (mul $border.terminationGracePeriodSeconds 1000) $phase -}}
{{- fail (printf "border.terminationGracePeriodSeconds %d must be above border.shutdownPhaseTimeout %s, or Kubernetes kills a draining Border" (int $border.terminationGracePeriodSeconds) $border.shutdownPhaseTimeout) -}}
{{- end -}}
{{- end -}}

{{/* Where a Border pod may run, as a nodeSelector (empty: anywhere). Pass (dict "ctx" $ "instance" .). */}}
{{- define "egress.borderPin" -}}
{{- $placement := .ctx.Values.border.placement -}}
{{- if eq $placement.pinBy "nodeLabel" -}}
{{- toYaml (dict $placement.nodeLabelKey .instance.borderId) -}}
{{- else if eq $placement.pinBy "nodeName" -}}
{{- toYaml (dict "kubernetes.io/hostname" .instance.nodeName) -}}
{{- end -}}
{{- end -}}

{{/* Border placements that cannot work: a hostNetwork Border that may land on any node (it would
     crash-loop on bind), a nodeName that is missing or ignored, two Borders on one node. */}}
{{- define "egress.validateBorderPlacement" -}}
{{- $border := .Values.border -}}
{{- $nodes := dict -}}
{{- range $border.instances -}}
{{- if and $border.hostNetwork (eq $border.placement.pinBy "none") -}}
{{- fail (printf "border.instances[%s]: a hostNetwork Border needs a node pin (expected: border.placement.pinBy nodeLabel, with the node holding its IPs labelled %s=%s, or nodeName)" .borderId $border.placement.nodeLabelKey .borderId) -}}
{{- end -}}
{{- if eq $border.placement.pinBy "nodeName" -}}
{{- if not .nodeName -}}
{{- fail (printf "border.instances[%s]: nodeName is required with border.placement.pinBy=nodeName" .borderId) -}}
{{- end -}}
{{- if hasKey $nodes .nodeName -}}
{{- fail (printf "border.instances: %s and %s are both on node %s (expected: one Border per node; the second would stay Pending or fail to bind its ports)" (get $nodes .nodeName) .borderId .nodeName) -}}
{{- end -}}
{{- $_ := set $nodes .nodeName .borderId -}}
{{- else if .nodeName -}}
{{- fail (printf "border.instances[%s]: nodeName %s is set but border.placement.pinBy is %s (expected: pinBy nodeName, or no nodeName)" .borderId .nodeName $border.placement.pinBy) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The tokens Secret mounted as files (a directory mount: kubelet updates the files when the Secret
     changes, and the services read them again, so rotation needs no restart). Pass (dict "ctx" $ "keys" list). */}}
{{- define "egress.tokenVolume" -}}
- name: tokens
  secret:
    secretName: {{ include "egress.secretName" .ctx }}
    items:
      {{- range .keys }}
      - key: {{ . }}
        path: {{ . }}
      {{- end }}
{{- end -}}

{{/* Trust chain: the Secret holding a component's certificate and key. Pass (dict "ctx" $ "component" "app") or
     (dict "ctx" $ "component" "border" "instance" .). */}}
{{- define "egress.trustSecretName" -}}
{{- if eq .component "app" -}}
{{- default (printf "%s-app-tls" (include "egress.fullname" .ctx)) .ctx.Values.tls.app.secretName -}}
{{- else -}}
{{- default (printf "%s-border-%s-tls" (include "egress.fullname" .ctx) .instance.borderId) .instance.tlsSecretName -}}
{{- end -}}
{{- end -}}

{{/* The SPIFFE identity a component's certificate must carry (docs/security.md); same arguments as
     egress.trustSecretName. */}}
{{- define "egress.spiffeId" -}}
{{- if eq .component "app" -}}
{{- printf "spiffe://%s/app/%s" .ctx.Values.tls.trustDomain .ctx.Release.Name -}}
{{- else -}}
{{- printf "spiffe://%s/border/%s" .ctx.Values.tls.trustDomain .instance.borderId -}}
{{- end -}}
{{- end -}}

{{/* The services refuse to start without trust material: with tls enabled, someone must provide the
     certificate Secrets, cert-manager (an issuer) or the user (tls.existingSecrets). */}}
{{- define "egress.validateTrust" -}}
{{- $tls := .Values.tls -}}
{{- if and $tls.enabled (not $tls.certManager.issuerRef.name) (not $tls.existingSecrets) -}}
{{- fail (printf "tls.enabled needs certificate Secrets, and nothing provides them: set tls.certManager.issuerRef.name (cert-manager issues them), or create the kubernetes.io/tls Secrets (%s-app-tls, %s-border-<borderId>-tls, with the SPIFFE URI SANs spiffe://%s/app/%s and spiffe://%s/border/<borderId> and a PKCS#8 key) and set tls.existingSecrets=true; tls.enabled=false runs plaintext with unsigned announcements, for experiments only (docs/kubernetes.md, \"Trust chain\")" (include "egress.fullname" .) (include "egress.fullname" .) $tls.trustDomain .Release.Name $tls.trustDomain) -}}
{{- end -}}
{{- end -}}

{{/* Trust-chain files as properties (egress.trust.*), or local mode when tls is off; same arguments as
     egress.trustSecretName. */}}
{{- define "egress.trustEnv" -}}
{{- if not .ctx.Values.tls.enabled }}
# tls.enabled=false: no trust material, so the services run in local mode (plaintext, unsigned
# announcements); for experiments only.
- name: EGRESS_SECURITY_INSECURELOCAL
  value: "true"
{{- else }}
- name: EGRESS_TRUST_DOMAIN
  value: {{ .ctx.Values.tls.trustDomain | quote }}
- name: EGRESS_TRUST_CERTIFICATE
  value: /etc/egress/trust/certificate.pem
- name: EGRESS_TRUST_PRIVATEKEY
  value: /etc/egress/trust/private-key.pem
- name: EGRESS_TRUST_BORDERCA
  value: /etc/egress/trust/border-ca.pem
- name: EGRESS_TRUST_APPCA
  value: /etc/egress/trust/app-ca.pem
{{- end }}
{{- end -}}

{{/* The trust-chain files in one projected directory (kubelet swaps them when cert-manager renews):
     the component's certificate and key, and the CAs of Borders and of App, by default the `ca.crt` of
     the component's own Secret (one issuer for both). Same arguments as egress.trustSecretName. */}}
{{- define "egress.trustVolume" -}}
{{- if .ctx.Values.tls.enabled }}
{{- $own := include "egress.trustSecretName" . }}
{{- $tls := .ctx.Values.tls }}
- name: trust
  projected:
    sources:
      - secret:
          name: {{ $own }}
          items:
            - key: tls.crt
              path: certificate.pem
            - key: tls.key
              path: private-key.pem
      {{- /* A CA bundle (old + new CA during a rotation) unless a CA Secret is named explicitly. */}}
      {{- range $ca := list (dict "values" $tls.borderCa "path" "border-ca.pem") (dict "values" $tls.appCa "path" "app-ca.pem") }}
      {{- if and $tls.caBundle.configMapName (not $ca.values.secretName) }}
      - configMap:
          name: {{ $tls.caBundle.configMapName }}
          items:
            - key: {{ $tls.caBundle.key }}
              path: {{ $ca.path }}
      {{- else }}
      - secret:
          name: {{ default $own $ca.values.secretName }}
          items:
            - key: {{ $ca.values.key }}
              path: {{ $ca.path }}
      {{- end }}
      {{- end }}
{{- end }}
{{- end -}}

{{- define "egress.trustVolumeMount" -}}
{{- if .Values.tls.enabled }}
- name: trust
  mountPath: /etc/egress/trust
  readOnly: true
{{- end }}
{{- end -}}
