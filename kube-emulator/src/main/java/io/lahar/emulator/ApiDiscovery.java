package io.lahar.emulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The discovery documents a real kube-apiserver serves and fabric8's mock does not: {@code /api},
 * {@code /apis}, {@code /api/v1}, {@code /apis/<group>} and {@code /apis/<group>/<version>}.
 * kubectl resolves every name it is given ({@code vcjob}, {@code pg}, {@code pods}) through them
 * before it sends a request, so without them it cannot talk to the emulator at all.
 *
 * <p>The catalogue is static: the core resources the bridge and kubectl use, Volcano's groups
 * (batch, bus, scheduling, flow), PriorityClasses and CRDs. It answers the legacy (unaggregated)
 * format; kubectl asks for aggregated discovery first and falls back to this.
 */
public final class ApiDiscovery {

    /** What a real Kubernetes 1.32 would report; the suffix says it is our emulator. */
    public static final String GIT_VERSION = "v1.32.0-lahar-emulated";

    private static final ObjectMapper JSON = Serialization.jsonMapper();

    private final List<ApiResource> resources;

    public ApiDiscovery(List<ApiResource> resources) {
        this.resources = List.copyOf(resources);
    }

    /** The resources of a Kubernetes cluster with Volcano installed, as far as Lahar needs them. */
    public static ApiDiscovery volcanoCluster() {
        return new ApiDiscovery(List.of(
                core("pods", "pod", "Pod", true, List.of("po"), List.of("status", "binding")),
                core("nodes", "node", "Node", false, List.of("no"), List.of("status")),
                core("namespaces", "namespace", "Namespace", false, List.of("ns"), List.of("status")),
                core("bindings", "binding", "Binding", true, List.of(), List.of()),
                core("services", "service", "Service", true, List.of("svc"), List.of("status")),
                core("configmaps", "configmap", "ConfigMap", true, List.of("cm"), List.of()),
                core("secrets", "secret", "Secret", true, List.of(), List.of()),
                core("events", "event", "Event", true, List.of("ev"), List.of()),
                core("serviceaccounts", "serviceaccount", "ServiceAccount", true, List.of("sa"), List.of()),
                core(
                        "persistentvolumeclaims",
                        "persistentvolumeclaim",
                        "PersistentVolumeClaim",
                        true,
                        List.of("pvc"),
                        List.of("status")),
                core("endpoints", "endpoints", "Endpoints", true, List.of("ep"), List.of()),
                builtIn(
                        "networking.k8s.io",
                        "v1",
                        "networkpolicies",
                        "networkpolicy",
                        "NetworkPolicy",
                        true,
                        List.of("netpol"),
                        List.of()),
                builtIn(
                        "scheduling.k8s.io",
                        "v1",
                        "priorityclasses",
                        "priorityclass",
                        "PriorityClass",
                        false,
                        List.of("pc"),
                        List.of()),
                builtIn(
                        "admissionregistration.k8s.io",
                        "v1",
                        "mutatingwebhookconfigurations",
                        "mutatingwebhookconfiguration",
                        "MutatingWebhookConfiguration",
                        false,
                        List.of(),
                        List.of()),
                builtIn(
                        "admissionregistration.k8s.io",
                        "v1",
                        "validatingwebhookconfigurations",
                        "validatingwebhookconfiguration",
                        "ValidatingWebhookConfiguration",
                        false,
                        List.of(),
                        List.of()),
                builtIn(
                        "apiextensions.k8s.io",
                        "v1",
                        "customresourcedefinitions",
                        "customresourcedefinition",
                        "CustomResourceDefinition",
                        false,
                        List.of("crd", "crds"),
                        List.of("status")),
                // Volcano's CRDs, with the short names and status subresources their manifests declare.
                custom("batch.volcano.sh", "v1alpha1", "jobs", "job", "Job", true, List.of("vcjob", "vj"), true),
                custom(
                        "batch.volcano.sh",
                        "v1alpha1",
                        "cronjobs",
                        "cronjob",
                        "CronJob",
                        true,
                        List.of("cronvcjob", "cronvj"),
                        true),
                custom("bus.volcano.sh", "v1alpha1", "commands", "command", "Command", true, List.of(), false),
                custom(
                        "scheduling.volcano.sh",
                        "v1beta1",
                        "podgroups",
                        "podgroup",
                        "PodGroup",
                        true,
                        List.of("pg", "podgroup-v1beta1"),
                        true),
                custom(
                        "scheduling.volcano.sh",
                        "v1beta1",
                        "queues",
                        "queue",
                        "Queue",
                        false,
                        List.of("q", "queue-v1beta1"),
                        true),
                custom("flow.volcano.sh", "v1alpha1", "jobflows", "jobflow", "JobFlow", true, List.of("jf"), true),
                custom(
                        "flow.volcano.sh",
                        "v1alpha1",
                        "jobtemplates",
                        "jobtemplate",
                        "JobTemplate",
                        true,
                        List.of("jt"),
                        true)));
    }

    private static ApiResource core(
            String plural,
            String singular,
            String kind,
            boolean namespaced,
            List<String> shortNames,
            List<String> subresources) {
        return new ApiResource("", "v1", plural, singular, kind, namespaced, shortNames, subresources, false);
    }

    private static ApiResource builtIn(
            String group,
            String version,
            String plural,
            String singular,
            String kind,
            boolean namespaced,
            List<String> shortNames,
            List<String> subresources) {
        return new ApiResource(group, version, plural, singular, kind, namespaced, shortNames, subresources, false);
    }

    private static ApiResource custom(
            String group,
            String version,
            String plural,
            String singular,
            String kind,
            boolean namespaced,
            List<String> shortNames,
            boolean status) {
        return new ApiResource(
                group,
                version,
                plural,
                singular,
                kind,
                namespaced,
                shortNames,
                status ? List.of("status") : List.of(),
                true);
    }

    public List<ApiResource> resources() {
        return resources;
    }

    /** The resource a request path addresses (a collection or one object; not a subresource), if served. */
    public Optional<ApiResource> resourceAt(String path) {
        String[] parts = withoutOuterSlashes(path).split("/");
        String group;
        String version;
        int rest;
        if (parts.length >= 3 && parts[0].equals("api")) {
            group = "";
            version = parts[1];
            rest = 2;
        } else if (parts.length >= 4 && parts[0].equals("apis")) {
            group = parts[1];
            version = parts[2];
            rest = 3;
        } else {
            return Optional.empty();
        }
        List<String> tail = List.of(parts).subList(rest, parts.length);
        String plural;
        int after;
        if (tail.size() >= 3 && tail.get(0).equals("namespaces")) {
            plural = tail.get(2);
            after = 3;
        } else {
            plural = tail.get(0);
            after = 1;
        }
        if (tail.size() > after + 1) {
            return Optional.empty(); // a subresource, not the object itself
        }
        return find(group, version, plural);
    }

    /** {@code path} without its leading and trailing slashes: asked of every request, so no expression compiled for it. */
    private static String withoutOuterSlashes(String path) {
        int from = 0;
        int to = path.length();
        while (from < to && path.charAt(from) == '/') {
            from++;
        }
        while (to > from && path.charAt(to - 1) == '/') {
            to--;
        }
        return path.substring(from, to);
    }

    /** The resource served at {@code group/version/plural}, if any. */
    public Optional<ApiResource> find(String group, String version, String plural) {
        return resources.stream()
                .filter(r -> r.group().equals(group)
                        && r.version().equals(version)
                        && r.plural().equals(plural))
                .findFirst();
    }

    /**
     * The custom resources as fabric8's CRUD store wants them: with the plural it cannot infer from
     * a generic object's kind, and the status-subresource flag that makes a plain update keep the
     * stored status (as a real apiserver does for CRDs with {@code subresources.status}).
     */
    public List<CustomResourceDefinitionContext> customResourceContexts() {
        return resources.stream()
                .filter(ApiResource::custom)
                .map(r -> new CustomResourceDefinitionContext.Builder()
                        .withName(r.plural() + "." + r.group())
                        .withGroup(r.group())
                        .withVersion(r.version())
                        .withPlural(r.plural())
                        .withKind(r.kind())
                        .withScope(r.namespaced() ? "Namespaced" : "Cluster")
                        .withStatusSubresource(r.hasStatus())
                        .build())
                .toList();
    }

    /** {@code GET /api}: the core group's versions. */
    public String apiVersions(String serverAddress) {
        ObjectNode doc = JSON.createObjectNode().put("kind", "APIVersions");
        doc.putArray("versions").add("v1");
        doc.putArray("serverAddressByClientCIDRs")
                .addObject()
                .put("clientCIDR", "0.0.0.0/0")
                .put("serverAddress", serverAddress);
        return doc.toString();
    }

    /** {@code GET /apis}: every named group with its versions. */
    public String apiGroupList() {
        ObjectNode doc = JSON.createObjectNode().put("kind", "APIGroupList").put("apiVersion", "v1");
        ArrayNode groups = doc.putArray("groups");
        groupVersions().forEach((group, versions) -> groups.add(apiGroupNode(group, versions)));
        return doc.toString();
    }

    /** {@code GET /apis/<group>}, or empty if the group is unknown. */
    public Optional<String> apiGroup(String group) {
        Set<String> versions = groupVersions().get(group);
        if (versions == null) {
            return Optional.empty();
        }
        return Optional.of(apiGroupNode(group, versions)
                .put("kind", "APIGroup")
                .put("apiVersion", "v1")
                .toString());
    }

    /** {@code GET /api/v1} or {@code GET /apis/<group>/<version>}, or empty if not served. */
    public Optional<String> resourceList(String group, String version) {
        List<ApiResource> inVersion = resources.stream()
                .filter(r -> r.group().equals(group) && r.version().equals(version))
                .toList();
        if (inVersion.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode doc = JSON.createObjectNode()
                .put("kind", "APIResourceList")
                .put("apiVersion", "v1")
                .put("groupVersion", inVersion.get(0).groupVersion());
        ArrayNode list = doc.putArray("resources");
        for (ApiResource r : inVersion) {
            ObjectNode main = list.addObject()
                    .put("name", r.plural())
                    .put("singularName", r.singular())
                    .put("namespaced", r.namespaced())
                    .put("kind", r.kind());
            ArrayNode verbs = main.putArray("verbs");
            // A Binding is only ever created, never read back (it is not stored).
            (r.kind().equals("Binding") ? List.of("create") : ApiResource.VERBS).forEach(verbs::add);
            if (!r.shortNames().isEmpty()) {
                ArrayNode shortNames = main.putArray("shortNames");
                r.shortNames().forEach(shortNames::add);
            }
            if (r.group().isEmpty() && (r.plural().equals("pods") || r.plural().equals("services"))) {
                main.putArray("categories").add("all"); // as on a real cluster, so `kubectl get all` resolves
            }
            for (String sub : r.subresources()) {
                boolean binding = sub.equals("binding");
                ObjectNode subNode = list.addObject()
                        .put("name", r.plural() + "/" + sub)
                        .put("singularName", "")
                        .put("namespaced", r.namespaced())
                        .put("kind", binding ? "Binding" : r.kind());
                ArrayNode subVerbs = subNode.putArray("verbs");
                (binding ? List.of("create") : List.of("get", "patch", "update")).forEach(subVerbs::add);
            }
        }
        return Optional.of(doc.toString());
    }

    /** {@code GET /version}. */
    public String version() {
        return JSON.createObjectNode()
                .put("major", "1")
                .put("minor", "32")
                .put("gitVersion", GIT_VERSION)
                .put("gitCommit", "")
                .put("gitTreeState", "clean")
                .put("buildDate", "2026-01-01T00:00:00Z")
                .put("goVersion", "n/a (fabric8 mock server, Java)")
                .put("compiler", "n/a")
                .put("platform", "linux/amd64")
                .toString();
    }

    private Map<String, Set<String>> groupVersions() {
        Map<String, Set<String>> byGroup = new LinkedHashMap<>();
        resources.stream()
                .filter(r -> !r.group().isEmpty())
                .forEach(r -> byGroup.computeIfAbsent(r.group(), g -> new LinkedHashSet<>())
                        .add(r.version()));
        return byGroup;
    }

    private static ObjectNode apiGroupNode(String group, Set<String> versions) {
        ObjectNode node = JSON.createObjectNode().put("name", group);
        ArrayNode list = node.putArray("versions");
        versions.forEach(
                v -> list.addObject().put("groupVersion", group + "/" + v).put("version", v));
        String preferred = versions.iterator().next();
        node.putObject("preferredVersion")
                .put("groupVersion", group + "/" + preferred)
                .put("version", preferred);
        return node;
    }
}
