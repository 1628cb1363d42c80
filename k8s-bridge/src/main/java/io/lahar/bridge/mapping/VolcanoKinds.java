package io.lahar.bridge.mapping;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * Volcano's custom resources as the bridge addresses them. Kept as generic resources: the bridge
 * reads and writes only the fields Lahar's contract carries, and needs no typed Volcano model.
 */
public final class VolcanoKinds {

    public static final String BATCH_API_VERSION = "batch.volcano.sh/v1alpha1";
    public static final String BUS_API_VERSION = "bus.volcano.sh/v1alpha1";
    public static final String SCHEDULING_API_VERSION = "scheduling.volcano.sh/v1beta1";
    public static final String FLOW_API_VERSION = "flow.volcano.sh/v1alpha1";

    public static final ResourceDefinitionContext JOBS = context("batch.volcano.sh", "v1alpha1", "jobs", "Job", true);
    public static final ResourceDefinitionContext CRON_JOBS =
            context("batch.volcano.sh", "v1alpha1", "cronjobs", "CronJob", true);
    public static final ResourceDefinitionContext COMMANDS =
            context("bus.volcano.sh", "v1alpha1", "commands", "Command", true);
    public static final ResourceDefinitionContext POD_GROUPS =
            context("scheduling.volcano.sh", "v1beta1", "podgroups", "PodGroup", true);
    public static final ResourceDefinitionContext QUEUES =
            context("scheduling.volcano.sh", "v1beta1", "queues", "Queue", false);
    public static final ResourceDefinitionContext JOB_FLOWS =
            context("flow.volcano.sh", "v1alpha1", "jobflows", "JobFlow", true);
    public static final ResourceDefinitionContext JOB_TEMPLATES =
            context("flow.volcano.sh", "v1alpha1", "jobtemplates", "JobTemplate", true);

    private VolcanoKinds() {}

    private static ResourceDefinitionContext context(
            String group, String version, String plural, String kind, boolean namespaced) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group)
                .withVersion(version)
                .withPlural(plural)
                .withKind(kind)
                .withNamespaced(namespaced)
                .build();
    }
}
