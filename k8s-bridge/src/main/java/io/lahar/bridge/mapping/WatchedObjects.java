package io.lahar.bridge.mapping;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserSequence;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.cfg.HandlerInstantiator;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import com.fasterxml.jackson.databind.deser.ResolvableDeserializer;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.runtime.RawExtension;
import io.fabric8.kubernetes.internal.KubernetesDeserializer;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The object of a watch event, read in one pass. fabric8's {@link KubernetesDeserializer} reads the
 * object into a tree, looks up the class of its apiVersion and kind, and reads the tree again into
 * that class: every pod change the bridge watches was parsed twice. This reads the fields up to
 * apiVersion and kind into a buffer and asks fabric8's deserializer which class they name; when
 * they came first, as the API server writes them, the rest of the object is read into that class
 * straight from the text, else from the buffer and the rest of the text: the same object,
 * the same classes for the same kinds (a kind fabric8 does not know is a
 * {@link GenericKubernetesResource}, an object without both a {@link RawExtension}), one pass.
 * Anything but a JSON object goes to fabric8's deserializer as before.
 */
public final class WatchedObjects extends JsonDeserializer<Object> implements ResolvableDeserializer {

    /** Mixed into fabric8's WatchEvent: its object read by {@link WatchedObjects}. */
    public abstract static class WatchEventObject {
        @JsonDeserialize(using = WatchedObjects.class)
        abstract void setObject(Object object);
    }

    /**
     * A deserializer that reads an object from the field after its apiVersion and kind (or its end),
     * given them: a bean's, or one of the bridge's own ({@link ManagedPods}).
     */
    public interface Rest {
        Object read(JsonParser p, DeserializationContext ctxt, String apiVersion, String kind) throws IOException;
    }

    private record Target(JsonDeserializer<Object> deserializer, Rest rest) {}

    private static final String API_VERSION = "apiVersion";
    private static final String KIND = "kind";

    /** fabric8's deserializer of the mapper's serialization, which knows the classes of the kinds registered with it. */
    private KubernetesDeserializer fabric8;

    /** By class: one mapper's, as this deserializer is (Jackson builds one for each mapper's WatchEvent). */
    private final Map<Class<?>, Target> targets = new ConcurrentHashMap<>();

    @Override
    public void resolve(DeserializationContext ctxt) {
        HandlerInstantiator handlers = ctxt.getConfig().getHandlerInstantiator();
        JsonDeserializer<?> deserializer = handlers == null
                ? null
                : handlers.deserializerInstance(ctxt.getConfig(), null, KubernetesDeserializer.class);
        fabric8 = deserializer instanceof KubernetesDeserializer k ? k : new KubernetesDeserializer();
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (!p.isExpectedStartObjectToken()) {
            return fabric8.deserialize(p, ctxt);
        }
        TokenBuffer read = ctxt.bufferForInputBuffering(p);
        read.writeStartObject();
        String apiVersion = null;
        String kind = null;
        boolean apiVersionRead = false;
        boolean kindRead = false;
        boolean onlyTypeRead = true;
        JsonToken token = p.nextToken();
        for (; token == JsonToken.FIELD_NAME; token = p.nextToken()) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if (API_VERSION.equals(field)) {
                apiVersion = value == JsonToken.VALUE_STRING ? p.getText() : null;
                apiVersionRead = true;
            } else if (KIND.equals(field)) {
                kind = value == JsonToken.VALUE_STRING ? p.getText() : null;
                kindRead = true;
            } else {
                onlyTypeRead = false;
            }
            read.writeFieldName(field);
            read.copyCurrentStructure(p);
            if (apiVersionRead && kindRead) {
                break;
            }
        }
        Class<?> type = kind == null || apiVersion == null
                ? RawExtension.class
                : registeredOrGeneric(fabric8.getRegisteredKind(apiVersion, kind));
        Target target = target(type, ctxt);
        if (token == JsonToken.FIELD_NAME && onlyTypeRead && target.rest() != null) {
            // Read first, as the API server writes them: the rest of the object straight from the text.
            p.nextToken();
            return target.rest().read(p, ctxt, apiVersion, kind);
        }
        JsonParser rest;
        if (token == JsonToken.FIELD_NAME) {
            // Both read, the rest of the object still in the text: the buffer, then the text.
            p.clearCurrentToken();
            rest = JsonParserSequence.createFlattened(false, read.asParser(p), p);
        } else {
            read.writeEndObject();
            rest = read.asParser(p);
        }
        rest.nextToken();
        // As ctxt.readValue(rest, type), without its lookup.
        return target.deserializer().deserialize(rest, ctxt);
    }

    /**
     * The class's deserializer, found once: Jackson's root lookup asks each time whether the class is
     * polymorphic, introspecting its annotations, which showed in the profile of every watched change.
     * The classes are those of the kinds the client knows, so the map stays small.
     */
    private Target target(Class<?> type, DeserializationContext ctxt) throws IOException {
        Target target = targets.get(type);
        if (target == null) {
            JsonDeserializer<Object> deserializer = ctxt.findRootValueDeserializer(ctxt.constructType(type));
            target = new Target(deserializer, restOf(deserializer));
            targets.putIfAbsent(type, target);
        }
        return target;
    }

    /** How the rest of an object is read once its apiVersion and kind were, or null: only from the start. */
    private static Rest restOf(JsonDeserializer<Object> deserializer) {
        if (deserializer instanceof Rest rest) {
            return rest;
        }
        if (deserializer instanceof BeanDeserializerBase bean) {
            SettableBeanProperty apiVersionProperty = bean.findProperty(API_VERSION);
            SettableBeanProperty kindProperty = bean.findProperty(KIND);
            if (apiVersionProperty != null && kindProperty != null) {
                return (p, ctxt, apiVersion, kind) -> {
                    Object object = bean.deserialize(p, ctxt);
                    apiVersionProperty.set(object, apiVersion);
                    kindProperty.set(object, kind);
                    return object;
                };
            }
        }
        return null;
    }

    private static Class<? extends KubernetesResource> registeredOrGeneric(Class<? extends KubernetesResource> type) {
        return type == null ? GenericKubernetesResource.class : type;
    }
}
