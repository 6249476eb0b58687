{{/* The release's objects are named after it: "gitfn" for a release called gitfn. */}}
{{- define "gitfn.fullname" -}}
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

{{- define "gitfn.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "gitfn.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: gitfn
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end -}}

{{/* Selector labels of the controller's Pods. */}}
{{- define "gitfn.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gitfn.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: controller
{{- end -}}

{{- define "gitfn.registrySelectorLabels" -}}
app.kubernetes.io/name: {{ include "gitfn.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: registry
{{- end -}}

{{- define "gitfn.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "gitfn.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "gitfn.registryName" -}}
{{- printf "%s-registry" (include "gitfn.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The in-cluster registry as the controller and install Jobs (cluster DNS) reach it. */}}
{{- define "gitfn.inClusterRegistryAddress" -}}
{{- printf "%s.%s.svc.cluster.local:%v" (include "gitfn.registryName" .) .Release.Namespace .Values.inClusterRegistry.service.port -}}
{{- end -}}

{{/* --registry: the value, or the in-cluster registry when it is on. */}}
{{/*
True (non-empty) when the controller needs a registry: every Function is built unless buildMode is buildless,
and a buildless cluster may still name one for the Functions that ask for image builds.
*/}}
{{- define "gitfn.needsRegistry" -}}
{{- if not (has .Values.buildMode (list "image" "buildless")) -}}
{{- fail (printf "buildMode is %q: use image or buildless" .Values.buildMode) -}}
{{- end -}}
{{- if or (eq .Values.buildMode "image") .Values.registry.address .Values.inClusterRegistry.enabled -}}
true
{{- end -}}
{{- end -}}

{{- define "gitfn.registryAddress" -}}
{{- if .Values.registry.address -}}
{{- .Values.registry.address -}}
{{- else if .Values.inClusterRegistry.enabled -}}
{{- include "gitfn.inClusterRegistryAddress" . -}}
{{- else -}}
{{- fail "registry.address is required: the registry gitfn pushes Function images to, e.g. --set registry.address=registry.example.com/functions (or --set inClusterRegistry.enabled=true for a development registry in the cluster)" -}}
{{- end -}}
{{- end -}}
