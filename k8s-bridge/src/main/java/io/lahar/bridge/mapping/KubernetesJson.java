package io.lahar.bridge.mapping;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * The JSON of Kubernetes objects, as the bridge reads and writes them: fabric8's serialization with
 * Jackson's Blackbird module. fabric8's model classes are beans of setters and getters, which plain
 * Jackson calls by reflection; from a call site that sees thousands of them, each reflective call
 * is an uninlined method-handle invocation, and these were the single largest item of the bridge's
 * profile under load. Blackbird calls them through generated lambdas instead; the JSON is the same
 * byte for byte ({@code KubernetesJsonTest}).
 */
public final class KubernetesJson {

    /** For objects read or written without a client: templates, plugin objects. */
    public static final KubernetesSerialization SERIALIZATION;
    /** The mapper of {@link #SERIALIZATION}, for what is read from a parser rather than a text. */
    static final ObjectMapper MAPPER = new ObjectMapper();

    static {
        SERIALIZATION = new KubernetesSerialization(MAPPER, true);
        fast(MAPPER);
    }

    private KubernetesJson() {}

    /**
     * Registers Blackbird on {@code mapper}, which fabric8's {@link KubernetesSerialization} has
     * configured already. The order matters: Jackson calls the modules' bean modifiers latest first,
     * so Blackbird, registered after fabric8's module, replaces each reflective property before
     * fabric8 wraps it (to route unknown fields); registered before, it would find them wrapped and
     * leave them be. The objects of watch events are read in one pass ({@link WatchedObjects}).
     */
    public static ObjectMapper fast(ObjectMapper mapper) {
        // Before any watch event is read: Jackson keeps the deserializers it has built.
        mapper.addMixIn(WatchEvent.class, WatchedObjects.WatchEventObject.class);
        return mapper.registerModule(new BlackbirdModule());
    }
}
