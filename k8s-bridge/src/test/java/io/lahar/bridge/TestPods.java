package io.lahar.bridge;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.mapping.BridgeLabels;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.schema.CreatePod;
import io.lahar.schema.PodIntent;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Pods as the bridge made them before a task's pods shared their spec: the reference of tests and benchmarks. */
public final class TestPods {

    private static final KubernetesSerialization PLAIN = new KubernetesSerialization();

    private TestPods() {}

    /** The pod as the bridge made it before templates were shared: the template parsed for this pod alone. */
    public static Pod parsedAlone(PodIntent intent, CreatePod create, Optional<OwnerReference> owner) {
        PodTemplateSpec template = create.getTemplate().isBlank()
                ? new PodTemplateSpec()
                : PLAIN.unmarshal(create.getTemplate(), PodTemplateSpec.class);
        ObjectMeta source = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
        Map<String, String> labels = new LinkedHashMap<>(source.getLabels() == null ? Map.of() : source.getLabels());
        labels.putAll(create.getLabels());
        labels.putIfAbsent(PodLabels.JOB_NAME, intent.getJob());
        labels.putIfAbsent(PodLabels.JOB_NAMESPACE, intent.getNamespace());
        labels.putIfAbsent(PodLabels.TASK_SPEC, create.getTask());
        labels.put(BridgeLabels.MANAGED_BY, BridgeLabels.MANAGER);
        Map<String, String> annotations =
                new LinkedHashMap<>(source.getAnnotations() == null ? Map.of() : source.getAnnotations());
        annotations.putAll(create.getAnnotations());
        annotations.putIfAbsent(PodLabels.TASK_INDEX, Integer.toString(create.getIndex()));
        annotations.put(PodLabels.JOB_VERSION, Integer.toString(create.getJobVersion()));
        annotations.putIfAbsent(PodLabels.GROUP_NAME, create.getPodGroup());
        annotations.put(BridgeLabels.JOB_UID, intent.getJobUid());
        PodSpec spec = template.getSpec() == null ? new PodSpec() : template.getSpec();
        spec.setSchedulerName(
                create.getSchedulerName().isBlank() ? BridgeLabels.DEFAULT_SCHEDULER : create.getSchedulerName());
        spec.setNodeName(null);
        return new PodBuilder()
                .withNewMetadata()
                .withName(create.getPod())
                .withNamespace(intent.getNamespace())
                .withLabels(labels)
                .withAnnotations(annotations)
                .withOwnerReferences(owner.stream().toList())
                .endMetadata()
                .withSpec(spec)
                .build();
    }
}
