package io.lahar.bridge.mapping;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.schema.CreatePod;
import io.lahar.schema.PodIntent;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** A CreatePod intent as the Kubernetes Pod the bridge creates. */
public final class Pods {

    private Pods() {}

    /**
     * The pod: the intent's template (carried intact) with the intent's name, namespace, labels and
     * annotations on top, the scheduler name that keeps kube-scheduler away, and the owner reference
     * to the Volcano Job CR when one exists (so deleting the CR garbage-collects the pods). Its spec is
     * the one {@code templates} shares with the other pods of the task: the pod is for writing to
     * the cluster, not for changing.
     *
     * @throws IllegalArgumentException when the template is not a PodTemplateSpec
     */
    public static Pod pod(PodIntent intent, CreatePod create, Optional<OwnerReference> owner, PodTemplates templates) {
        PodTemplates.Template template = templates.read(
                create.getTemplate(),
                create.getSchedulerName() == null || create.getSchedulerName().isBlank()
                        ? BridgeLabels.DEFAULT_SCHEDULER
                        : create.getSchedulerName());
        ObjectMeta source = template.metadata();
        Map<String, String> labels = new LinkedHashMap<>(nullToEmpty(source.getLabels()));
        labels.putAll(create.getLabels());
        // The fields the pod watch reads back into pod events must be there whatever the engine sent.
        labels.putIfAbsent(PodLabels.JOB_NAME, intent.getJob());
        labels.putIfAbsent(PodLabels.JOB_NAMESPACE, intent.getNamespace());
        labels.putIfAbsent(PodLabels.TASK_SPEC, create.getTask());
        labels.put(BridgeLabels.MANAGED_BY, BridgeLabels.MANAGER);
        Map<String, String> annotations = new LinkedHashMap<>(nullToEmpty(source.getAnnotations()));
        annotations.putAll(create.getAnnotations());
        annotations.putIfAbsent(PodLabels.TASK_INDEX, Integer.toString(create.getIndex()));
        annotations.put(PodLabels.JOB_VERSION, Integer.toString(create.getJobVersion()));
        annotations.putIfAbsent(PodLabels.GROUP_NAME, create.getPodGroup());
        if (intent.getJobUid() != null) {
            annotations.put(BridgeLabels.JOB_UID, intent.getJobUid());
        }
        ObjectMeta metadata = new ObjectMeta();
        metadata.setName(create.getPod());
        metadata.setNamespace(intent.getNamespace());
        metadata.setLabels(labels);
        metadata.setAnnotations(annotations);
        metadata.setOwnerReferences(new ArrayList<>(owner.stream().toList()));
        // Not PodBuilder: it would copy the shared spec, deeply, for every pod.
        Pod pod = new Pod();
        pod.setMetadata(metadata);
        pod.setSpec(template.spec());
        return pod;
    }

    /** Job version a pod was created for (annotation volcano.sh/job-version); 0 when absent or malformed. */
    public static int jobVersion(Pod pod) {
        return intAnnotation(pod, PodLabels.JOB_VERSION).orElse(0);
    }

    /**
     * The lastTransitionTime of the pod's PodScheduled condition while it is True (the binding sets
     * it), which the scheduler's cdp plugin measures a cooldown from; null while it is not, or when
     * the time is missing or not RFC 3339.
     */
    public static Instant scheduledTime(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) return null;
        for (PodCondition c : pod.getStatus().getConditions()) {
            if (!"PodScheduled".equals(c.getType())) continue;
            if (!"True".equals(c.getStatus()) || c.getLastTransitionTime() == null) return null;
            try {
                return Instant.parse(c.getLastTransitionTime());
            } catch (DateTimeParseException e) {
                return null;
            }
        }
        return null;
    }

    static Optional<Integer> intAnnotation(Pod pod, String key) {
        String annotation = pod.getMetadata() == null || pod.getMetadata().getAnnotations() == null
                ? null
                : pod.getMetadata().getAnnotations().get(key);
        String label = pod.getMetadata() == null || pod.getMetadata().getLabels() == null
                ? null
                : pod.getMetadata().getLabels().get(key);
        return intOf(annotation, label);
    }

    /**
     * As {@link #jobVersion(Pod)}, from the values of the pod's annotation and label read without
     * the pod (a create's answer, read as far as needed).
     */
    public static int jobVersion(String annotation, String label) {
        return intOf(annotation, label).orElse(0);
    }

    /** The annotation's value as a number, or else the label's. */
    private static Optional<Integer> intOf(String annotation, String label) {
        String value = annotation != null ? annotation : label;
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Integer.parseInt(value.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The owner reference to a Volcano Job CR, as Volcano's controller sets it on its pods. */
    public static OwnerReference jobOwner(String jobName, String jobUid) {
        OwnerReference ref = new OwnerReference();
        ref.setApiVersion(VolcanoKinds.BATCH_API_VERSION);
        ref.setKind("Job");
        ref.setName(jobName);
        ref.setUid(jobUid);
        ref.setController(true);
        ref.setBlockOwnerDeletion(true);
        return ref;
    }

    private static Map<String, String> nullToEmpty(Map<String, String> map) {
        return map == null ? Map.of() : map;
    }
}
