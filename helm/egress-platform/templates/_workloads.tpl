{{/* CPUs of a Kubernetes quantity ("500m", "1", "1.5", 2), rounded up to a whole CPU, at least 1. */}}
{{- define "egress.wholeCpus" -}}
{{- $value := toString . -}}
{{- if hasSuffix "m" $value -}}
{{- $millis := trimSuffix "m" $value | atoi -}}
{{- max 1 (div (add $millis 999) 1000) -}}
{{- else -}}
{{- max 1 (ceil (float64 $value) | int) -}}
{{- end -}}
{{- end -}}

{{/* JAVA_TOOL_OPTIONS of a service: its jvmOptions, and -XX:ActiveProcessorCount from its CPU limit (else
     its request) unless the options name one. Without it a JVM in a pod without a CPU limit sizes its GC
     and Netty's event loops from the node's cores. Pass the component values (app or border). */}}
{{- define "egress.jvmOptions" -}}
{{- $options := .jvmOptions -}}
{{- $cpu := or (dig "limits" "cpu" "" (.resources | default dict)) (dig "requests" "cpu" "" (.resources | default dict)) -}}
{{- if and $options (eq (int .activeProcessorCount) 0) $cpu (not (contains "ActiveProcessorCount" $options)) -}}
{{- $options = printf "%s -XX:ActiveProcessorCount=%s" $options (include "egress.wholeCpus" $cpu) -}}
{{- else if and $options (gt (int .activeProcessorCount) 0) (not (contains "ActiveProcessorCount" $options)) -}}
{{- $options = printf "%s -XX:ActiveProcessorCount=%d" $options (int .activeProcessorCount) -}}
{{- end -}}
{{- $options -}}
{{- end -}}

{{/* A StatefulSet's pods carry the label controller-revision-hash=<name>-<10 characters>, and label values
     stop at 63 characters: with a longer name the controller never creates the pod. Fail the render
     instead, naming what to shorten. Pass the root context. */}}
{{- define "egress.validateBorderNames" -}}
{{- range .Values.border.instances -}}
{{- $name := printf "%s-border-%s" (include "egress.fullname" $) .borderId -}}
{{- if gt (len $name) 52 -}}
{{- fail (printf "border.instances[%s]: StatefulSet name %s is %d characters (expected: at most 52, or its pod is never created); shorten the borderId, the release name or set fullnameOverride" .borderId $name (len $name)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The IPv4 (or IPv6) CIDRs of a list, space-separated: a NetworkPolicy ipBlock's except must lie inside
     its cidr, so 0.0.0.0/0 and ::/0 each get their own family. */}}
{{- define "egress.ipv4Only" -}}
{{- $out := list -}}
{{- range . }}{{ if not (contains ":" .) }}{{ $out = append $out . }}{{ end }}{{ end -}}
{{- join " " $out -}}
{{- end -}}

{{- define "egress.ipv6Only" -}}
{{- $out := list -}}
{{- range . }}{{ if contains ":" . }}{{ $out = append $out . }}{{ end }}{{ end -}}
{{- join " " $out -}}
{{- end -}}
