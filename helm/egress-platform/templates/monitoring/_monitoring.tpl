{{/*
Seconds in a Go/Spring duration string such as "30s", "1m30s" or "500ms" (ms rounded down), so alert
thresholds follow the App's configuration instead of repeating it.
*/}}
{{- define "egress.durationSeconds" -}}
{{- $total := 0.0 -}}
{{- range $part := regexFindAll "[0-9]+(ms|s|m|h|d)" (toString .) -1 -}}
{{- $n := float64 (regexFind "^[0-9]+" $part) -}}
{{- $unit := regexReplaceAll "^[0-9]+" $part "" -}}
{{- if eq $unit "ms" }}{{ $total = addf $total (divf $n 1000) }}
{{- else if eq $unit "s" }}{{ $total = addf $total $n }}
{{- else if eq $unit "m" }}{{ $total = addf $total (mulf $n 60) }}
{{- else if eq $unit "h" }}{{ $total = addf $total (mulf $n 3600) }}
{{- else if eq $unit "d" }}{{ $total = addf $total (mulf $n 86400) }}
{{- end -}}
{{- end -}}
{{- $total -}}
{{- end -}}
