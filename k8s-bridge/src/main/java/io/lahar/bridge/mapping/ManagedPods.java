package io.lahar.bridge.mapping;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.ResolvableDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.impl.BaseClient;
import io.fabric8.kubernetes.client.impl.KubernetesClientImpl;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The pods the bridge manages as its pod watch reads them: only what a pod event, {@code CreatedPods}
 * and the informer read. Decoding every watched change into a whole {@link Pod} bound, mostly through
 * reflective setters, a spec of containers, volumes and resources, managed fields and a status of IPs
 * and probes that nothing reads; the watch reads the pod's name, namespace, uid, resourceVersion,
 * labels and annotations, its node, and its status' phase, reason, message, conditions (type, status,
 * time) and containers' statuses (name, restarts, exit codes and reasons). The rest is skipped with
 * the parser, never bound. Only a client made by {@link #client} reads pods this way: a pod read for
 * anything else (binds, deletes, the workload watch) is whole.
 *
 * <p>A field of an unexpected shape (not an object, array or scalar where one is expected) is read
 * by the mapper's own deserializer of the field's type: the same object fabric8 would make of it,
 * or the same error.
 */
public final class ManagedPods {

    private ManagedPods() {}

    /** Made on first use: only a bridge's pod watch needs it. */
    private static final class Holder {
        static final KubernetesSerialization SERIALIZATION = newSerialization();
    }

    /**
     * A client of {@code client}'s cluster, over its HTTP client and on its executor, whose pods are
     * read as the pod watch needs them. Not to be closed: it would close the HTTP client it shares
     * (closing the informers made of it is enough).
     */
    public static KubernetesClient client(KubernetesClient client) {
        BaseClient base = client.adapt(BaseClient.class);
        Executor executor = base.getExecutor();
        return new KubernetesClientImpl(
                base.getHttpClient(), base.getConfiguration(), () -> executor, Holder.SERIALIZATION);
    }

    /** The serialization of {@link #client}: the service's ({@link KubernetesJson#fast}), pods read slim. */
    public static KubernetesSerialization serialization() {
        return Holder.SERIALIZATION;
    }

    private static KubernetesSerialization newSerialization() {
        ObjectMapper mapper = new ObjectMapper();
        KubernetesSerialization serialization = new KubernetesSerialization(mapper, true);
        KubernetesJson.fast(mapper);
        mapper.registerModule(new SimpleModule("lahar-managed-pods").addDeserializer(Pod.class, new Reader()));
        return serialization;
    }

    /** Reads a pod's fields of {@link ManagedPods}, skipping the others. */
    static final class Reader extends StdDeserializer<Pod> implements ResolvableDeserializer, WatchedObjects.Rest {

        /** The mapper's own, for what fabric8 makes of a scalar that is not a string (its Integer reads Go's forms). */
        private JsonDeserializer<Object> stringDeserializer;

        private JsonDeserializer<Object> integerDeserializer;

        Reader() {
            super(Pod.class);
        }

        @Override
        public void resolve(DeserializationContext ctxt) throws JsonMappingException {
            stringDeserializer = ctxt.findRootValueDeserializer(ctxt.constructType(String.class));
            integerDeserializer = ctxt.findRootValueDeserializer(ctxt.constructType(Integer.class));
        }

        /** Resolved once: not cached, it would be resolved again at each lookup. */
        @Override
        public boolean isCachable() {
            return true;
        }

        @Override
        public Object read(JsonParser p, DeserializationContext ctxt, String apiVersion, String kind)
                throws IOException {
            Pod pod = deserialize(p, ctxt);
            pod.setApiVersion(apiVersion);
            pod.setKind(kind);
            return pod;
        }

        /** From the object's start, or (as a bean's deserializer) from a field of it or its end. */
        @Override
        public Pod deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonToken token = p.currentToken();
            if (token == JsonToken.START_OBJECT) {
                token = p.nextToken();
            } else if (token != JsonToken.FIELD_NAME && token != JsonToken.END_OBJECT) {
                return (Pod) ctxt.handleUnexpectedToken(Pod.class, p);
            }
            Pod pod = new Pod();
            for (; token == JsonToken.FIELD_NAME; token = p.nextToken()) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "apiVersion" -> pod.setApiVersion(string(p, ctxt));
                    case "kind" -> pod.setKind(string(p, ctxt));
                    case "metadata" -> pod.setMetadata(object(p, ctxt, ObjectMeta.class, ObjectMeta::new, this::meta));
                    case "spec" -> pod.setSpec(object(p, ctxt, PodSpec.class, PodSpec::new, this::spec));
                    case "status" -> pod.setStatus(object(p, ctxt, PodStatus.class, PodStatus::new, this::status));
                    default -> p.skipChildren();
                }
            }
            return pod;
        }

        private boolean meta(ObjectMeta meta, String field, JsonParser p, DeserializationContext ctxt)
                throws IOException {
            switch (field) {
                case "name" -> meta.setName(string(p, ctxt));
                case "namespace" -> meta.setNamespace(string(p, ctxt));
                case "uid" -> meta.setUid(string(p, ctxt));
                case "resourceVersion" -> meta.setResourceVersion(string(p, ctxt));
                case "labels" -> meta.setLabels(stringMap(p, ctxt));
                case "annotations" -> meta.setAnnotations(stringMap(p, ctxt));
                default -> {
                    return false;
                }
            }
            return true;
        }

        private boolean spec(PodSpec spec, String field, JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!"nodeName".equals(field)) {
                return false;
            }
            spec.setNodeName(string(p, ctxt));
            return true;
        }

        private boolean status(PodStatus status, String field, JsonParser p, DeserializationContext ctxt)
                throws IOException {
            switch (field) {
                case "phase" -> status.setPhase(string(p, ctxt));
                case "reason" -> status.setReason(string(p, ctxt));
                case "message" -> status.setMessage(string(p, ctxt));
                case "conditions" ->
                    status.setConditions(list(p, ctxt, PodCondition.class, PodCondition::new, this::condition));
                case "containerStatuses" ->
                    status.setContainerStatuses(
                            list(p, ctxt, ContainerStatus.class, ContainerStatus::new, this::container));
                default -> {
                    return false;
                }
            }
            return true;
        }

        private boolean condition(PodCondition condition, String field, JsonParser p, DeserializationContext ctxt)
                throws IOException {
            switch (field) {
                case "type" -> condition.setType(string(p, ctxt));
                case "status" -> condition.setStatus(string(p, ctxt));
                case "lastTransitionTime" -> condition.setLastTransitionTime(string(p, ctxt));
                default -> {
                    return false;
                }
            }
            return true;
        }

        private boolean container(ContainerStatus container, String field, JsonParser p, DeserializationContext ctxt)
                throws IOException {
            switch (field) {
                case "name" -> container.setName(string(p, ctxt));
                case "restartCount" -> container.setRestartCount(integer(p, ctxt));
                case "state" ->
                    container.setState(object(p, ctxt, ContainerState.class, ContainerState::new, this::state));
                case "lastState" ->
                    container.setLastState(object(p, ctxt, ContainerState.class, ContainerState::new, this::state));
                default -> {
                    return false;
                }
            }
            return true;
        }

        private boolean state(ContainerState state, String field, JsonParser p, DeserializationContext ctxt)
                throws IOException {
            switch (field) {
                case "terminated" ->
                    state.setTerminated(object(
                            p, ctxt, ContainerStateTerminated.class, ContainerStateTerminated::new, this::terminated));
                case "waiting" ->
                    state.setWaiting(
                            object(p, ctxt, ContainerStateWaiting.class, ContainerStateWaiting::new, this::waiting));
                default -> {
                    return false;
                }
            }
            return true;
        }

        private boolean terminated(
                ContainerStateTerminated terminated, String field, JsonParser p, DeserializationContext ctxt)
                throws IOException {
            switch (field) {
                case "exitCode" -> terminated.setExitCode(integer(p, ctxt));
                case "reason" -> terminated.setReason(string(p, ctxt));
                default -> {
                    return false;
                }
            }
            return true;
        }

        private boolean waiting(ContainerStateWaiting waiting, String field, JsonParser p, DeserializationContext ctxt)
                throws IOException {
            if (!"reason".equals(field)) {
                return false;
            }
            waiting.setReason(string(p, ctxt));
            return true;
        }

        /** Reads the value of one field into the object; false: not a field read, to be skipped. */
        @FunctionalInterface
        private interface Fields<T> {
            boolean read(T object, String field, JsonParser p, DeserializationContext ctxt) throws IOException;
        }

        /** An object's fields that {@code fields} reads (as Jackson's bean would: null for null). */
        private static <T> T object(
                JsonParser p, DeserializationContext ctxt, Class<T> type, Supplier<T> make, Fields<T> fields)
                throws IOException {
            JsonToken token = p.currentToken();
            if (token == JsonToken.VALUE_NULL) {
                return null;
            }
            if (token != JsonToken.START_OBJECT) {
                return ctxt.readValue(p, type);
            }
            T object = make.get();
            for (token = p.nextToken(); token == JsonToken.FIELD_NAME; token = p.nextToken()) {
                String field = p.currentName();
                p.nextToken();
                if (!fields.read(object, field, p, ctxt)) {
                    p.skipChildren();
                }
            }
            return object;
        }

        private static <T> List<T> list(
                JsonParser p, DeserializationContext ctxt, Class<T> type, Supplier<T> make, Fields<T> fields)
                throws IOException {
            JsonToken token = p.currentToken();
            if (token == JsonToken.VALUE_NULL) {
                return null;
            }
            if (token != JsonToken.START_ARRAY) {
                JavaType listType = ctxt.getTypeFactory().constructCollectionType(List.class, type);
                return ctxt.readValue(p, listType);
            }
            List<T> list = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                list.add(object(p, ctxt, type, make, fields));
            }
            return list;
        }

        /** A map of strings, as fabric8's labels and annotations (a null value kept). */
        private Map<String, String> stringMap(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonToken token = p.currentToken();
            if (token == JsonToken.VALUE_NULL) {
                return null;
            }
            if (token != JsonToken.START_OBJECT) {
                JavaType mapType = ctxt.getTypeFactory().constructMapType(Map.class, String.class, String.class);
                return ctxt.readValue(p, mapType);
            }
            Map<String, String> map = new LinkedHashMap<>();
            for (token = p.nextToken(); token == JsonToken.FIELD_NAME; token = p.nextToken()) {
                String key = p.currentName();
                p.nextToken();
                map.put(key, string(p, ctxt));
            }
            return map;
        }

        private String string(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() == JsonToken.VALUE_STRING) {
                return p.getText();
            }
            return p.currentToken() == JsonToken.VALUE_NULL ? null : (String) stringDeserializer.deserialize(p, ctxt);
        }

        private Integer integer(JsonParser p, DeserializationContext ctxt) throws IOException {
            return p.currentToken() == JsonToken.VALUE_NULL ? null : (Integer) integerDeserializer.deserialize(p, ctxt);
        }
    }
}
