package io.lahar.schema.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.PodTemplate;
import io.lahar.core.job.WorldAction;
import io.lahar.core.job.plugins.ObjectKind;
import io.lahar.schema.CreatePod;
import io.lahar.schema.DeleteObject;
import io.lahar.schema.DeletePod;
import io.lahar.schema.EnsureConfigMap;
import io.lahar.schema.EnsurePersistentVolumeClaim;
import io.lahar.schema.EnsureService;
import io.lahar.schema.EnsureSshSecret;
import io.lahar.schema.PodIntent;
import io.lahar.schema.ServicePort;
import io.lahar.schema.Toleration;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The engine's {@link WorldAction}s to {@code lahar.pod-intents} records. Pod-group actions and
 * the TTL's job deletion are carried by other topics (pod groups, job status); an object the
 * intent union has no branch for (or cannot carry whole) is reported as such, never dropped
 * unnoticed. A job plugin's new kind of object needs a branch here (core/README.md, "Adding a job
 * plugin").
 */
public final class PodIntentCodec {

    /** The Kubernetes scheduler a pod without {@code schedulerName} goes to. */
    static final String DEFAULT_SCHEDULER = "default-scheduler";

    static final String GROUP_NAME = "scheduling.k8s.io/group-name";
    static final String JOB_NAME = "volcano.sh/job-name";
    static final String JOB_NAMESPACE = "volcano.sh/job-namespace";

    private PodIntentCodec() {}

    /** Which job and moment an intent belongs to. */
    public record Context(String namespace, String job, String jobUid, int jobVersion, long time) {}

    /** How one world action travels. */
    public sealed interface Mapping {}

    /** As this pod intent. */
    public record Intent(PodIntent intent) implements Mapping {}

    /** On another topic: the pod group (pod-groups) or the job's own deletion (job-status tombstone). */
    public record Elsewhere() implements Mapping {}

    /** The intent union has no branch that carries it whole; {@code why} says what is not carried. */
    public record NotInContract(String why) implements Mapping {}

    public static Mapping map(Context ctx, WorldAction action) {
        return switch (action) {
            case WorldAction.CreatePod c -> intent(ctx, createPod(ctx, c));
            case WorldAction.DeletePod d -> intent(ctx, new DeletePod(d.name(), ctx.jobVersion(), d.reason()));
            case WorldAction.CreateObject o
            when ObjectKind.SERVICE.kind().equals(o.kind()) -> intent(ctx, service(ctx, o));
            case WorldAction.CreateObject o
            when ObjectKind.NETWORK_POLICY.kind().equals(o.kind()) -> NetworkPolicyCodec.map(ctx, o);
            case WorldAction.CreateObject o ->
                new NotInContract(o.kind() + " " + o.name() + ": the intent union has no branch for this kind");
            case WorldAction.CreateConfigMap cm ->
                intent(ctx, new EnsureConfigMap(cm.name(), jobLabels(ctx), new TreeMap<>(cm.data())));
            case WorldAction.RequestSshSecret s ->
                intent(
                        ctx,
                        EnsureSshSecret.newBuilder()
                                .setName(s.name())
                                .setLabels(jobLabels(ctx))
                                .setData(new TreeMap<>(s.data()))
                                .setKeyBits(2048)
                                .build());
            case WorldAction.DeleteObject d -> intent(ctx, new DeleteObject(d.kind(), d.name(), deleteReason(d)));
            case WorldAction.CreatePersistentVolumeClaim pvc ->
                intent(
                        ctx,
                        new EnsurePersistentVolumeClaim(
                                pvc.name(),
                                jobLabels(ctx),
                                pvc.spec() == null ? "{}" : pvc.spec().toString()));
            case WorldAction.UpsertPodGroup u -> new Elsewhere();
            case WorldAction.DeletePodGroup d -> new Elsewhere();
            case WorldAction.DeleteJob d -> new Elsewhere();
        };
    }

    static Intent intent(Context ctx, Object body) {
        return new Intent(PodIntent.newBuilder()
                .setNamespace(ctx.namespace())
                .setJob(ctx.job())
                .setJobUid(ctx.jobUid())
                .setTime(Instant.ofEpochMilli(ctx.time()))
                .setIntent(body)
                .build());
    }

    static Map<String, String> jobLabels(Context ctx) {
        Map<String, String> labels = new TreeMap<>();
        labels.put(JOB_NAME, ctx.job());
        labels.put(JOB_NAMESPACE, ctx.namespace());
        return labels;
    }

    static CreatePod createPod(Context ctx, WorldAction.CreatePod c) {
        ObjectNode pod = c.pod();
        ObjectNode template = JsonNodeFactory.instance.objectNode();
        template.set(
                "metadata",
                pod.path("metadata").isObject()
                        ? pod.get("metadata").deepCopy()
                        : JsonNodeFactory.instance.objectNode());
        template.set(
                "spec",
                pod.path("spec").isObject() ? pod.get("spec").deepCopy() : JsonNodeFactory.instance.objectNode());
        PodTemplate view = new PodTemplate(template);
        Map<String, String> annotations = strings(view.metadata().path("annotations"));
        Map<String, String> requests = new TreeMap<>();
        for (Map.Entry<String, BigDecimal> e : view.effectiveRequests().entrySet()) {
            requests.put(e.getKey(), e.getValue().stripTrailingZeros().toPlainString());
        }
        JsonNode priority = view.spec().path("priority");
        return CreatePod.newBuilder()
                .setPod(c.name())
                .setTask(c.task())
                .setIndex(c.index())
                .setJobVersion(c.version())
                .setPodGroup(annotations.getOrDefault(GROUP_NAME, ""))
                .setLabels(new TreeMap<>(view.labels()))
                .setAnnotations(annotations)
                .setSchedulerName(view.schedulerName().orElse(DEFAULT_SCHEDULER))
                .setTemplate(template.toString())
                .setRequests(requests)
                .setPriorityClassName(view.priorityClassName().orElse(null))
                .setPriority(priority.isInt() ? priority.asInt() : null)
                .setNodeSelector(new TreeMap<>(view.nodeSelector()))
                .setAffinity(view.affinity().map(JsonNode::toString).orElse(null))
                .setTolerations(view.tolerations().stream()
                        .map(PodIntentCodec::toleration)
                        .toList())
                .build();
    }

    private static Toleration toleration(JsonNode t) {
        return Toleration.newBuilder()
                .setKey(text(t.path("key")))
                .setOperator(text(t.path("operator")))
                .setValue(text(t.path("value")))
                .setEffect(text(t.path("effect")))
                .setTolerationSeconds(
                        t.path("tolerationSeconds").canConvertToLong()
                                ? t.path("tolerationSeconds").asLong()
                                : null)
                .build();
    }

    private static EnsureService service(Context ctx, WorldAction.CreateObject o) {
        JsonNode spec = o.object().path("spec");
        List<ServicePort> ports = new ArrayList<>();
        JsonNode list = spec.path("ports");
        if (list.isArray()) {
            for (JsonNode p : list) {
                ports.add(new ServicePort(
                        p.path("name").asText(""),
                        p.path("port").asInt(),
                        p.path("protocol").asText("TCP")));
            }
        }
        Map<String, String> labels = strings(o.object().path("metadata").path("labels"));
        labels.putAll(jobLabels(ctx));
        boolean headless = "None".equals(spec.path("clusterIP").asText());
        return new EnsureService(o.name(), labels, strings(spec.path("selector")), ports, headless);
    }

    /** A plugin's objects go when the plugin releases them (a kill); a volume's claim only with its job. */
    private static String deleteReason(WorldAction.DeleteObject d) {
        return ObjectKind.PERSISTENT_VOLUME_CLAIM.kind().equals(d.kind()) ? "JobDeleted" : "PluginReleased";
    }

    static Map<String, String> strings(JsonNode node) {
        Map<String, String> out = new TreeMap<>();
        if (node.isObject()) {
            node.properties()
                    .forEach(e -> out.put(
                            e.getKey(),
                            e.getValue().isValueNode()
                                    ? e.getValue().asText()
                                    : e.getValue().toString()));
        }
        return out;
    }

    private static String text(JsonNode n) {
        return n.isValueNode() && !n.isNull() ? n.asText() : null;
    }
}
