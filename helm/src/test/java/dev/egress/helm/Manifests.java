package dev.egress.helm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The parsed output of one {@code helm template}: Kubernetes objects and typed accessors over them. */
record Manifests(List<Map<String, Object>> objects) {

    @SuppressWarnings("unchecked")
    static Manifests parse(String rendered) {
        List<Map<String, Object>> objects = new ArrayList<>();
        for (Object document : ChartRendering.yaml().loadAll(rendered)) {
            if (document != null) {
                objects.add((Map<String, Object>) document);
            }
        }
        return new Manifests(List.copyOf(objects));
    }

    Stream<Map<String, Object>> ofKind(String kind) {
        return objects.stream().filter(o -> kind.equals(o.get("kind")));
    }

    List<Map<String, Object>> deployments() {
        return ofKind("Deployment").toList();
    }

    /** Everything that runs pods: App's Deployment and the Borders' StatefulSets. */
    List<Map<String, Object>> workloads() {
        return objects.stream()
                .filter(o -> "Deployment".equals(o.get("kind")) || "StatefulSet".equals(o.get("kind")))
                .toList();
    }

    /** The StatefulSet of one Border. */
    Map<String, Object> border(String borderId) {
        return named("StatefulSet", ChartRendering.PREFIX + "-border-" + borderId);
    }

    /** App's Deployment. */
    Map<String, Object> app() {
        return named("Deployment", ChartRendering.PREFIX + "-app");
    }

    Map<String, Object> named(String kind, String name) {
        return ofKind(kind)
                .filter(o -> name.equals(Manifests.<String>at(o, "metadata", "name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " named " + name + " in " + names()));
    }

    List<String> names() {
        return objects.stream()
                .map(o -> o.get("kind") + "/" + at(o, "metadata", "name"))
                .toList();
    }

    static Map<String, Object> podSpec(Map<String, Object> workload) {
        return at(workload, "spec", "template", "spec");
    }

    static List<Map<String, Object>> containers(Map<String, Object> workload) {
        return at(workload, "spec", "template", "spec", "containers");
    }

    static Map<String, String> podLabels(Map<String, Object> workload) {
        return at(workload, "spec", "template", "metadata", "labels");
    }

    static Map<String, String> podAnnotations(Map<String, Object> workload) {
        Map<String, String> annotations = at(workload, "spec", "template", "metadata", "annotations");
        return annotations == null ? Map.of() : annotations;
    }

    /** Environment of the first container as name -> value (valueFrom entries map to null). */
    static Map<String, String> env(Map<String, Object> workload) {
        Map<String, String> env = new LinkedHashMap<>();
        List<Map<String, Object>> entries = at(containers(workload).get(0), "env");
        for (Map<String, Object> entry : entries) {
            env.put((String) entry.get("name"), (String) entry.get("value"));
        }
        return env;
    }

    /** Mounts of the first container as mountPath -> volume name. */
    static Map<String, String> mounts(Map<String, Object> workload) {
        Map<String, String> mounts = new LinkedHashMap<>();
        List<Map<String, Object>> entries = at(containers(workload).get(0), "volumeMounts");
        for (Map<String, Object> entry : entries) {
            mounts.put((String) entry.get("mountPath"), (String) entry.get("name"));
        }
        return mounts;
    }

    /** The pod volume of that name; fails when there is none. */
    static Map<String, Object> volume(Map<String, Object> workload, String name) {
        List<Map<String, Object>> volumes = at(podSpec(workload), "volumes");
        return volumes.stream()
                .filter(v -> name.equals(v.get("name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no volume " + name + " in " + volumes));
    }

    /** Walks nested maps; null when a key is missing. */
    @SuppressWarnings("unchecked")
    static <T> T at(Map<String, Object> root, String... path) {
        Object current = root;
        for (String key : path) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(key);
        }
        return (T) current;
    }
}
