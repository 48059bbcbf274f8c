package dev.egress.helm;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1NetworkPolicy;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V2HorizontalPodAutoscaler;
import java.io.IOException;
import java.util.Map;
import java.util.Set;

/**
 * Checks a manifest against the Kubernetes API schema, offline: the official Java client's models are
 * generated from the API's OpenAPI document and refuse JSON with a field their type does not define (a
 * field in the wrong place), without a required field, or with a field of the wrong shape. Kinds of
 * custom resources (no schema here) must be named in {@link #CUSTOM_KINDS}; any other kind fails, so a
 * new kind in the chart cannot slip past unchecked.
 */
final class KubernetesApiSchema {

    /** Custom resources the chart renders, by "apiVersion/kind"; the API server has no schema for them here. */
    static final Set<String> CUSTOM_KINDS =
            Set.of("monitoring.coreos.com/v1/ServiceMonitor", "cert-manager.io/v1/Certificate");

    private static final Map<String, Validator> VALIDATORS = Map.ofEntries(
            Map.entry("apps/v1/Deployment", V1Deployment::validateJsonElement),
            Map.entry("apps/v1/StatefulSet", V1StatefulSet::validateJsonElement),
            Map.entry("v1/Service", V1Service::validateJsonElement),
            Map.entry("v1/Secret", V1Secret::validateJsonElement),
            Map.entry("v1/ConfigMap", V1ConfigMap::validateJsonElement),
            Map.entry("v1/ServiceAccount", V1ServiceAccount::validateJsonElement),
            Map.entry("v1/Namespace", V1Namespace::validateJsonElement),
            Map.entry("policy/v1/PodDisruptionBudget", V1PodDisruptionBudget::validateJsonElement),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", V1NetworkPolicy::validateJsonElement),
            Map.entry("batch/v1/Job", V1Job::validateJsonElement),
            Map.entry("rbac.authorization.k8s.io/v1/Role", V1Role::validateJsonElement),
            Map.entry("rbac.authorization.k8s.io/v1/RoleBinding", V1RoleBinding::validateJsonElement),
            Map.entry("autoscaling/v2/HorizontalPodAutoscaler", V2HorizontalPodAutoscaler::validateJsonElement));

    private static final Gson GSON = new Gson();

    private KubernetesApiSchema() {}

    /** Throws AssertionError naming the object and the offending field when it does not fit the schema. */
    static void validate(Map<String, Object> manifest) {
        String type = manifest.get("apiVersion") + "/" + manifest.get("kind");
        if (CUSTOM_KINDS.contains(type)) {
            return;
        }
        Validator validator = VALIDATORS.get(type);
        if (validator == null) {
            throw new AssertionError("no Kubernetes schema known for " + type + " (add it to KubernetesApiSchema)");
        }
        try {
            validator.validate(GSON.toJsonTree(manifest));
        } catch (IOException | RuntimeException e) {
            throw new AssertionError(
                    type + " " + Manifests.at(manifest, "metadata", "name") + ": " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface Validator {
        void validate(JsonElement json) throws IOException;
    }
}
