package io.lahar.core.job;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.PodGroup;
import java.util.Map;

/**
 * What the engine asks of the world. The bridge (or the simulator) carries these out; the
 * engine learns the result only from later {@link Input}s.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = WorldAction.CreatePod.class, name = "CreatePod"),
    @JsonSubTypes.Type(value = WorldAction.DeletePod.class, name = "DeletePod"),
    @JsonSubTypes.Type(value = WorldAction.UpsertPodGroup.class, name = "UpsertPodGroup"),
    @JsonSubTypes.Type(value = WorldAction.DeletePodGroup.class, name = "DeletePodGroup"),
    @JsonSubTypes.Type(value = WorldAction.CreateObject.class, name = "CreateObject"),
    @JsonSubTypes.Type(value = WorldAction.CreateConfigMap.class, name = "CreateConfigMap"),
    @JsonSubTypes.Type(value = WorldAction.RequestSshSecret.class, name = "RequestSshSecret"),
    @JsonSubTypes.Type(value = WorldAction.CreatePersistentVolumeClaim.class, name = "CreatePersistentVolumeClaim"),
    @JsonSubTypes.Type(value = WorldAction.DeleteObject.class, name = "DeleteObject"),
    @JsonSubTypes.Type(value = WorldAction.DeleteJob.class, name = "DeleteJob")
})
public sealed interface WorldAction {

    /** Create a pod: {@code pod} is the whole v1 Pod, template plus Volcano's labels and plugins. */
    record CreatePod(String name, String task, int index, int version, ObjectNode pod) implements WorldAction {}

    /** Delete a pod the job owns (kill, restart, scale down). */
    record DeletePod(String name, String reason) implements WorldAction {}

    /** Create the job's pod group, or update its spec (minMember, minResources...). */
    record UpsertPodGroup(PodGroup podGroup) implements WorldAction {}

    /** Delete the job's pod group (Volcano does it on every kill, so the gang is re-queued). */
    record DeletePodGroup(String name) implements WorldAction {}

    /** svc plugin: the headless Service (or its NetworkPolicy), as the whole object. */
    record CreateObject(String kind, String name, ObjectNode object) implements WorldAction {}

    /** svc plugin: the ConfigMap of host lists, created or updated. */
    record CreateConfigMap(String name, Map<String, String> data) implements WorldAction {}

    /**
     * ssh plugin: a Secret {@code name} holding a fresh key pair. The key is generated outside the
     * core (so the engine stays deterministic); {@code data} carries the entries the engine
     * computes (the ssh {@code config}), {@code keyEntries} names the entries the generator fills:
     * private key, public key, authorized_keys.
     */
    record RequestSshSecret(String name, Map<String, String> data, java.util.List<String> keyEntries)
            implements WorldAction {}

    /** A PersistentVolumeClaim for a job volume given inline ({@code volumeClaim}). */
    record CreatePersistentVolumeClaim(String name, ObjectNode spec) implements WorldAction {}

    /** Delete an object a plugin created (Service, NetworkPolicy, ConfigMap, Secret). */
    record DeleteObject(String kind, String name) implements WorldAction {}

    /** ttlSecondsAfterFinished expired: delete the job itself. */
    record DeleteJob(String reason) implements WorldAction {}
}
