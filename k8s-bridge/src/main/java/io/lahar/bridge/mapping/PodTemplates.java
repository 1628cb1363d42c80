package io.lahar.bridge.mapping;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.lahar.core.util.LruMap;
import java.io.IOException;
import java.util.Map;

/**
 * The pod templates of CreatePod intents, read for the pods the bridge creates. A template is the
 * pod's own metadata (its name, index, labels) and its task's spec: every pod of a task carries the
 * same spec, text for text, unless a plugin wrote something of the pod's own into it. So the
 * metadata is read for each pod, and the spec parsed once per text (and scheduler name) and shared
 * by the pods made from it, which only serialize it: a shared spec is never changed. At most
 * {@code capacity} specs are kept, the least recently used forgotten first, and a spec longer than
 * {@code maxSpecChars} is parsed for its pod alone, so the memory held stays bounded whatever the
 * templates. Thread-safe: the pods of different lanes are made at once.
 */
public final class PodTemplates {

    /** The pods of the tasks being created at once share this many specs. */
    public static final int CAPACITY = 256;
    /** Far above a usual spec; a larger one is rare enough to parse each time. */
    public static final int MAX_SPEC_CHARS = 64 * 1024;

    /** A template read: metadata of the pod's own, a spec shared with its task's pods (read-only). */
    public record Template(ObjectMeta metadata, PodSpec spec) {}

    private record Key(String spec, String schedulerName) {}

    private final int maxSpecChars;
    private final Map<Key, PodSpec> specs;

    public PodTemplates() {
        this(CAPACITY, MAX_SPEC_CHARS);
    }

    public PodTemplates(int capacity, int maxSpecChars) {
        this.maxSpecChars = maxSpecChars;
        this.specs = new LruMap<>(capacity);
    }

    /**
     * The template as a pod of scheduler {@code schedulerName} is created from it: its spec with that
     * scheduler name and without a node name (Lahar binds through the Binding subresource; a nodeName
     * in the template would bypass the gang).
     *
     * @throws IllegalArgumentException when the template is not a PodTemplateSpec
     */
    public Template read(String json, String schedulerName) {
        if (json == null || json.isBlank()) {
            return new Template(new ObjectMeta(), spec(null, schedulerName));
        }
        ObjectMapper mapper = KubernetesJson.MAPPER;
        ObjectMeta metadata = null;
        String specText = null;
        try (JsonParser p = mapper.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new JsonParseException(p, "not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if ("metadata".equals(field)) {
                    metadata = value == JsonToken.VALUE_NULL ? null : mapper.readValue(p, ObjectMeta.class);
                } else if ("spec".equals(field) && value == JsonToken.START_OBJECT) {
                    int start = (int) p.currentTokenLocation().getCharOffset();
                    p.skipChildren();
                    specText = json.substring(start, (int) p.currentLocation().getCharOffset());
                } else if ("spec".equals(field) && value != JsonToken.VALUE_NULL) {
                    throw new JsonParseException(p, "spec: not an object");
                } else {
                    // What a PodTemplateSpec does not model is not written to the pod.
                    p.skipChildren();
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                throw new JsonParseException(p, "not one JSON object");
            }
        } catch (IOException | RuntimeException e) {
            throw invalid(e);
        }
        return new Template(metadata == null ? new ObjectMeta() : metadata, spec(specText, schedulerName));
    }

    /** Specs kept, for tests. */
    synchronized int size() {
        return specs.size();
    }

    private PodSpec spec(String text, String schedulerName) {
        if (text == null || text.length() > maxSpecChars) {
            return parse(text, schedulerName);
        }
        Key key = new Key(text, schedulerName);
        synchronized (this) {
            PodSpec kept = specs.get(key);
            if (kept != null) {
                return kept;
            }
        }
        // Parsed outside the lock: two lanes may parse the same spec at once, and one of them is kept.
        PodSpec parsed = parse(text, schedulerName);
        synchronized (this) {
            return specs.computeIfAbsent(key, k -> parsed);
        }
    }

    private static IllegalArgumentException invalid(Exception e) {
        return new IllegalArgumentException("intent.template: not a PodTemplateSpec: " + e.getMessage(), e);
    }

    private static PodSpec parse(String text, String schedulerName) {
        PodSpec spec;
        try {
            spec = text == null ? new PodSpec() : KubernetesJson.MAPPER.readValue(text, PodSpec.class);
        } catch (IOException e) {
            throw invalid(e);
        }
        spec.setSchedulerName(schedulerName);
        spec.setNodeName(null);
        return spec;
    }
}
