package io.lahar.emulator;

import java.util.List;

/**
 * One resource type the embedded API serves, as a discovery document describes it: where it lives
 * (group/version/plural), what kind it holds, whether it is namespaced, its short names (so
 * {@code kubectl get vcjob} resolves) and its subresources.
 *
 * @param group          API group, empty for the core group
 * @param version        API version within the group
 * @param plural         the resource name in URLs (pods, jobs, podgroups)
 * @param singular       singular name, which kubectl also accepts
 * @param kind           the kind of the objects
 * @param namespaced     false for cluster-scoped resources (nodes, queues)
 * @param shortNames     kubectl short names
 * @param subresources   subresources beside the main resource (status, binding)
 * @param custom         true for Volcano's custom resources (registered with the CRUD store so
 *                       their plural is known and a status subresource is honoured)
 */
public record ApiResource(
        String group,
        String version,
        String plural,
        String singular,
        String kind,
        boolean namespaced,
        List<String> shortNames,
        List<String> subresources,
        boolean custom) {

    /** The verbs the emulated store supports for a main resource (no deletecollection, no watch over HTTP). */
    static final List<String> VERBS = List.of("create", "delete", "get", "list", "patch", "update", "watch");

    public ApiResource {
        shortNames = List.copyOf(shortNames);
        subresources = List.copyOf(subresources);
    }

    /** {@code v1} for the core group, {@code group/version} otherwise, as {@code apiVersion} reads. */
    public String groupVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** The URL prefix of this resource's group version: {@code /api/v1} or {@code /apis/g/v}. */
    public String basePath() {
        return group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
    }

    public boolean hasStatus() {
        return subresources.contains("status");
    }
}
