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

{{/* Registry properties as environment variables (Spring relaxed binding). */}}
{{- define "egress.registryEnv" -}}
- name: EGRESS_REGISTRY_CONNECTIONSTRING
  value: {{ .Values.registry.connectionString | quote }}
- name: EGRESS_REGISTRY_NODE
  value: {{ .Values.registry.node | quote }}
- name: EGRESS_REGISTRY_SEMAPHORE
  value: {{ .Values.registry.semaphore | quote }}
- name: EGRESS_REGISTRY_SESSIONTIMEOUT
  value: {{ .Values.registry.sessionTimeout | quote }}
{{- with .Values.registry.tokenSecret.name }}
- name: EGRESS_REGISTRY_TOKENFILE
  value: /etc/egress/registry-token/{{ $.Values.registry.tokenSecret.key }}
{{- end }}
{{- with .Values.registry.caSecret.name }}
- name: EGRESS_REGISTRY_CACERTIFICATES
  value: /etc/egress/registry-ca/{{ $.Values.registry.caSecret.key }}
{{- end }}
{{- end -}}

{{/* Mounts of the registry token and CA Secrets (directory mounts, so kubelet updates a rotated token in place); pass the root context. */}}
{{- define "egress.registryVolumeMounts" -}}
{{- if .Values.registry.tokenSecret.name }}
- name: registry-token
  mountPath: /etc/egress/registry-token
  readOnly: true
{{- end }}
{{- if .Values.registry.caSecret.name }}
- name: registry-ca
  mountPath: /etc/egress/registry-ca
  readOnly: true
{{- end }}
{{- end -}}

{{/* Volumes for egress.registryVolumeMounts; pass the root context. */}}
{{- define "egress.registryVolumes" -}}
{{- with .Values.registry.tokenSecret }}
{{- if .name }}
- name: registry-token
  secret:
    secretName: {{ .name }}
    items:
      - key: {{ .key }}
        path: {{ .key }}
{{- end }}
{{- end }}
{{- with .Values.registry.caSecret }}
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

{{/* A security context without the chart-only "enabled" switch; pass the values object. */}}
{{- define "egress.securityContext" -}}
{{- toYaml (omit . "enabled") -}}
{{- end -}}

{{/* startup/liveness/readiness probes on the actuator health groups; pass the component values. */}}
{{- define "egress.probes" -}}
{{- if .startupProbe.enabled }}
startupProbe:
  httpGet:
    path: /actuator/health/liveness
    port: management
  {{- toYaml (omit .startupProbe "enabled") | nindent 2 }}
{{- end }}
{{- if .livenessProbe.enabled }}
livenessProbe:
  httpGet:
    path: /actuator/health/liveness
    port: management
  {{- toYaml (omit .livenessProbe "enabled") | nindent 2 }}
{{- end }}
{{- if .readinessProbe.enabled }}
readinessProbe:
  httpGet:
    path: /actuator/health/readiness
    port: management
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
{{- if hasKey $ips . -}}
{{- fail (printf "border.instances: IP %s is on both %s and %s (expected: each dedicated IP on one Border)" . (get $ips .) $owner) -}}
{{- end -}}
{{- $_ := set $ips . $owner -}}
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
