package io.lahar.bridge.webhook;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.core.api.CronJob;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.Queue;
import java.util.List;

/**
 * The kinds the bridge's validating webhooks admit, each registered as Volcano's chart registers
 * its webhook: the same path, configuration name, webhook name and operations. Volcano has no
 * webhook for JobTemplates; Lahar admits them (the engine refuses an invalid one), so theirs has a
 * Lahar name in Volcano's pattern. Queues are reviewed on DELETE too, as Volcano's are (root,
 * default and a queue with children are never deleted).
 */
public enum ValidatedKind {
    JOBS(
            "/jobs/validate",
            "volcano-admission-service-jobs-validate",
            "validatejob.volcano.sh",
            VolcanoKinds.JOBS,
            Job.class,
            List.of("CREATE", "UPDATE")),
    QUEUES(
            "/queues/validate",
            "volcano-admission-service-queues-validate",
            "validatequeue.volcano.sh",
            VolcanoKinds.QUEUES,
            Queue.class,
            List.of("CREATE", "UPDATE", "DELETE")),
    JOB_FLOWS(
            "/jobflows/validate",
            "volcano-admission-service-jobflows-validate",
            "validatejobflow.volcano.sh",
            VolcanoKinds.JOB_FLOWS,
            JobFlow.class,
            List.of("CREATE", "UPDATE")),
    JOB_TEMPLATES(
            "/jobtemplates/validate",
            "lahar-admission-service-jobtemplates-validate",
            "validatejobtemplate.lahar.io",
            VolcanoKinds.JOB_TEMPLATES,
            JobTemplate.class,
            List.of("CREATE", "UPDATE")),
    CRON_JOBS(
            "/cronjobs/validate",
            "volcano-admission-service-cronjobs-validate",
            "validatecronjob.volcano.sh",
            VolcanoKinds.CRON_JOBS,
            CronJob.class,
            List.of("CREATE", "UPDATE"));

    private final String path;
    private final String configuration;
    private final String webhook;
    private final ResourceDefinitionContext resource;
    private final Class<? extends Manifest> type;
    private final List<String> operations;

    ValidatedKind(
            String path,
            String configuration,
            String webhook,
            ResourceDefinitionContext resource,
            Class<? extends Manifest> type,
            List<String> operations) {
        this.path = path;
        this.configuration = configuration;
        this.webhook = webhook;
        this.resource = resource;
        this.type = type;
        this.operations = operations;
    }

    /** Where the webhook is served: Volcano's path. */
    public String path() {
        return path;
    }

    /** The name of its ValidatingWebhookConfiguration. */
    public String configuration() {
        return configuration;
    }

    /** The name of the webhook, the one kubectl quotes in a refusal. */
    public String webhook() {
        return webhook;
    }

    public ResourceDefinitionContext resource() {
        return resource;
    }

    public String apiVersion() {
        return resource.getGroup() + "/" + resource.getVersion();
    }

    Class<? extends Manifest> type() {
        return type;
    }

    /** The operations it is registered for. */
    public List<String> operations() {
        return operations;
    }
}
