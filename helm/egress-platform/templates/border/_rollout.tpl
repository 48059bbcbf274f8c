{{/* Seconds the rollout hook may spend on one Border: evictable (the others Ready), its drain
     (terminationGracePeriodSeconds + 30 s for the API and the kubelet), Ready again
     (border.rollout.readyTimeoutSeconds). One budget for all three waits. */}}
{{- define "egress.rolloutBorderBudget" -}}
{{- add .Values.border.rollout.readyTimeoutSeconds .Values.border.terminationGracePeriodSeconds 30 -}}
{{- end -}}

{{/* Seconds the whole hook may take (its Job's activeDeadlineSeconds): every Border's budget and its
     settle pause, one Border after another. `helm upgrade --timeout` must be above it, or Helm gives up
     on the hook (and with --atomic rolls back in the middle of the roll). */}}
{{- define "egress.rolloutSeconds" -}}
{{- mul (add (include "egress.rolloutBorderBudget" . | atoi) .Values.border.rollout.settleSeconds) (len .Values.border.instances) -}}
{{- end -}}

{{/* The --timeout to give `helm upgrade`/`helm rollback` with the rollout hook: the hook's deadline
     plus a minute for the rest of the release. */}}
{{- define "egress.rolloutHelmTimeout" -}}
{{- add (include "egress.rolloutSeconds" . | atoi) 60 -}}
{{- end -}}
