package io.lahar.bridge.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.JobTemplate;
import io.lahar.schema.Queue;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Lahar's objects as the Volcano CRs that mirror them in the cluster, so {@code kubectl get vcjob,
 * queues, jobflows, jobtemplates} shows every one however it was submitted (Kafka, REST, CLI, or
 * kubectl itself).
 * <p>
 * The ownership rule: a CR the bridge created as a mirror carries {@link #MIRROR_OF} (the engine's
 * UID of the object, or {@code lahar.queues} for a Queue) and {@link #SPEC_HASH} (a digest of the
 * spec the bridge wrote). A CR without them is a user's: the bridge writes its status, never its
 * spec. The CR watcher sends a mirrored CR back to Lahar only when its spec no longer matches the
 * digest, that is when someone other than the bridge changed it; its own writes never loop.
 */
public final class Mirrors {

    /** The engine's UID of the object a mirrored CR shows; on Queues, {@link #QUEUE_SOURCE}. */
    public static final String MIRROR_OF = "lahar.io/mirror-of";
    /** Digest of the spec the bridge last wrote onto a mirrored CR. */
    public static final String SPEC_HASH = "lahar.io/mirrored-spec";
    /** What {@link #MIRROR_OF} says on a Queue: queues have no UID in Lahar, their record is the source. */
    public static final String QUEUE_SOURCE = "lahar.queues";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Key order and number types must not change the digest of the same spec read back from the API. */
    private static final ObjectMapper CANONICAL =
            new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Mirrors() {}

    /** Whether the bridge created this CR as a mirror of a Lahar object. */
    public static boolean isMirror(GenericKubernetesResource cr) {
        return annotation(cr, MIRROR_OF) != null;
    }

    /**
     * Whether the CR's spec is the one the bridge wrote on it: such a CR is no input to Lahar (its
     * add, a re-list or a status write changes nothing there).
     */
    public static boolean writtenByBridge(GenericKubernetesResource cr) {
        String hash = annotation(cr, SPEC_HASH);
        return isMirror(cr)
                && hash != null
                && hash.equals(specHash(cr.getAdditionalProperties().get("spec")));
    }

    /**
     * The engine UID a deletion of this CR is about: the mirrored object's, or the CR's own for a
     * user's CR (the engine takes the UID of a CR it was submitted from).
     */
    public static String engineUid(GenericKubernetesResource cr) {
        String mirrored = annotation(cr, MIRROR_OF);
        return mirrored != null ? mirrored : cr.getMetadata().getUid();
    }

    /** A digest of a spec as JSON with sorted keys, so the same spec read back from the API digests alike. */
    public static String specHash(Object spec) {
        try {
            JsonNode tree = spec == null ? NODES.objectNode() : MAPPER.valueToTree(spec);
            byte[] json = CANONICAL.writeValueAsBytes(CANONICAL.treeToValue(tree, Object.class));
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(json);
            return HexFormat.of().formatHex(hash, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("spec is not JSON: " + e.getMessage(), e);
        }
    }

    /** The Volcano Job CR of a job status record: its admitted manifest's labels, annotations and spec, and its status. */
    public static GenericKubernetesResource job(JobStatusRecord record) {
        JsonNode manifest = parse(record.getManifest(), "manifest");
        GenericKubernetesResource cr = cr(
                VolcanoKinds.BATCH_API_VERSION,
                "Job",
                record.getNamespace(),
                record.getName(),
                manifest,
                record.getUid(),
                manifest.path("spec"));
        cr.setAdditionalProperty("status", VolcanoCrs.jobStatus(record));
        return cr;
    }

    /** The JobFlow CR of a flow status record. */
    public static GenericKubernetesResource flow(JobFlowStatusRecord record) {
        JsonNode manifest = parse(record.getManifest(), "manifest");
        GenericKubernetesResource cr = cr(
                VolcanoKinds.FLOW_API_VERSION,
                "JobFlow",
                record.getNamespace(),
                record.getName(),
                manifest,
                record.getUid() == null ? record.getNamespace() + "/" + record.getName() : record.getUid(),
                manifest.path("spec"));
        cr.setAdditionalProperty("status", FlowCrs.flowStatus(record));
        return cr;
    }

    /** The JobTemplate CR of a template record, its status Volcano's JobTemplateStatus (jobDependsOnList). */
    @SuppressWarnings("unchecked")
    public static GenericKubernetesResource template(JobTemplate record) {
        ObjectNode manifest = NODES.objectNode();
        ObjectNode metadata = manifest.putObject("metadata");
        metadata.set("labels", MAPPER.valueToTree(record.getLabels()));
        metadata.set("annotations", MAPPER.valueToTree(record.getAnnotations()));
        GenericKubernetesResource cr = cr(
                VolcanoKinds.FLOW_API_VERSION,
                "JobTemplate",
                record.getNamespace(),
                record.getName(),
                manifest,
                record.getUid() == null ? record.getNamespace() + "/" + record.getName() : record.getUid(),
                parse(record.getSpec(), "spec"));
        ObjectNode status = NODES.objectNode();
        if (!record.getJobDependsOnList().isEmpty()) {
            status.set("jobDependsOnList", MAPPER.valueToTree(record.getJobDependsOnList()));
        }
        cr.setAdditionalProperty("status", MAPPER.convertValue(status, Map.class));
        return cr;
    }

    /**
     * The Queue CR of a queue record, its spec as {@link VolcanoCrs#queue} reads it back, its status
     * the state the record asks for (the scheduler's counts follow from lahar.queue-status).
     */
    public static GenericKubernetesResource queue(Queue record) {
        ObjectNode spec = NODES.objectNode();
        spec.put("weight", record.getWeight());
        if (!record.getCapability().isEmpty()) {
            spec.set("capability", MAPPER.valueToTree(record.getCapability()));
        }
        if (!record.getDeserved().isEmpty()) {
            spec.set("deserved", MAPPER.valueToTree(record.getDeserved()));
        }
        if (!record.getGuarantee().isEmpty()) {
            spec.putObject("guarantee").set("resource", MAPPER.valueToTree(record.getGuarantee()));
        }
        spec.put("reclaimable", record.getReclaimable());
        if (record.getParent() != null) {
            spec.put("parent", record.getParent());
        }
        if (record.getPriority() != 0) {
            spec.put("priority", record.getPriority());
        }
        GenericKubernetesResource cr = cr(
                VolcanoKinds.SCHEDULING_API_VERSION,
                "Queue",
                null,
                record.getName(),
                NODES.objectNode(),
                QUEUE_SOURCE,
                spec);
        cr.setAdditionalProperty("status", Map.of("state", record.getState().name()));
        return cr;
    }

    @SuppressWarnings("unchecked")
    private static GenericKubernetesResource cr(
            String apiVersion,
            String kind,
            String namespace,
            String name,
            JsonNode manifest,
            String mirrorOf,
            JsonNode spec) {
        GenericKubernetesResource cr = new GenericKubernetesResource();
        cr.setApiVersion(apiVersion);
        cr.setKind(kind);
        ObjectMeta meta = new ObjectMeta();
        meta.setName(name);
        meta.setNamespace(namespace);
        Map<String, String> labels = strings(manifest.path("metadata").path("labels"));
        labels.put(BridgeLabels.MANAGED_BY, BridgeLabels.MANAGER);
        meta.setLabels(labels);
        Map<String, String> annotations = strings(manifest.path("metadata").path("annotations"));
        Object specValue = spec.isObject() ? MAPPER.convertValue(spec, Map.class) : Map.of();
        annotations.put(MIRROR_OF, mirrorOf);
        annotations.put(SPEC_HASH, specHash(specValue));
        meta.setAnnotations(annotations);
        cr.setMetadata(meta);
        cr.setAdditionalProperty("spec", specValue);
        return cr;
    }

    /** Labels and annotations, without the marks of an earlier mirror the manifest may carry. */
    private static Map<String, String> strings(JsonNode node) {
        Map<String, String> out = new LinkedHashMap<>();
        node.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        out.remove(MIRROR_OF);
        out.remove(SPEC_HASH);
        return out;
    }

    private static String annotation(GenericKubernetesResource cr, String key) {
        Map<String, String> annotations = cr.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(key);
    }

    private static JsonNode parse(String json, String path) {
        try {
            return MAPPER.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(path + ": not JSON: " + e.getMessage(), e);
        }
    }
}
