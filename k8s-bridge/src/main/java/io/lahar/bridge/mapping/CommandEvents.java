package io.lahar.bridge.mapping;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.lahar.schema.CommandResult;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The engine's answer to a command that came from Volcano's API, as a Kubernetes Event on the CR
 * it was about (Job, CronJob, JobFlow or JobTemplate): where Volcano's admission webhook would have refused
 * {@code kubectl apply}, Lahar admits asynchronously, so {@code kubectl describe vcjob} (or
 * {@code jobflow}, {@code jobtemplate}) is where a user reads why it was rejected.
 */
public final class CommandEvents {

    /** Prefix of the request ids the bridge gives the commands it derives from CRs. */
    public static final String REQUEST_PREFIX = "k8s:";
    /** Kubernetes caps an Event's message at 1 KiB. */
    static final int MAX_MESSAGE = 1024;

    private CommandEvents() {}

    /** The CR kinds whose commands the bridge sends, and how a result's kind names them. */
    public enum Target {
        JOB(VolcanoKinds.JOBS, VolcanoKinds.BATCH_API_VERSION),
        CRON_JOB(VolcanoKinds.CRON_JOBS, VolcanoKinds.BATCH_API_VERSION),
        JOB_FLOW(VolcanoKinds.JOB_FLOWS, VolcanoKinds.FLOW_API_VERSION),
        JOB_TEMPLATE(VolcanoKinds.JOB_TEMPLATES, VolcanoKinds.FLOW_API_VERSION);

        public final ResourceDefinitionContext kind;
        public final String apiVersion;

        Target(ResourceDefinitionContext kind, String apiVersion) {
            this.kind = kind;
            this.apiVersion = apiVersion;
        }

        /**
         * The engine names flow results SubmitJobFlow, DeleteJobFlow, SubmitJobTemplate,
         * DeleteJobTemplate, CronJob results SubmitCronJob, SuspendCronJob, DeleteCronJob; every
         * other kind (SubmitJob, UpdateJob, DeleteJob, a job action) is about a Job.
         */
        public static Target of(CommandResult result) {
            String kind = result.getKind();
            if (kind.endsWith("CronJob")) {
                return CRON_JOB;
            }
            if (kind.endsWith("JobFlow")) {
                return JOB_FLOW;
            }
            return kind.endsWith("JobTemplate") ? JOB_TEMPLATE : JOB;
        }
    }

    /** Whether the result answers a command the bridge sent for a CR (their request ids start with {@code k8s:}). */
    public static boolean fromCr(CommandResult result) {
        return result.getRequestId().startsWith(REQUEST_PREFIX);
    }

    /**
     * The event; its name is derived from the request id, so a redelivered result creates nothing new.
     *
     * @param jobUid the UID of the CR (Job, JobFlow or JobTemplate) when it still exists
     */
    public static Event event(CommandResult result, Optional<String> jobUid) {
        Target target = Target.of(result);
        String message = result.getAccepted()
                ? "accepted by Lahar (" + result.getRequestId() + ")"
                : result.getViolations().stream()
                        .map(v -> v.getPath() + ": " + v.getMessage())
                        .collect(Collectors.joining("; "));
        return event(
                result.getNamespace(),
                result.getName(),
                result.getRequestId(),
                target.apiVersion,
                target.kind.getKind(),
                jobUid.orElse(null),
                result.getAccepted() ? "Normal" : "Warning",
                result.getAccepted() ? "Admitted" : "Rejected",
                message,
                result.getTime());
    }

    /**
     * An Event from Lahar about the object {@code kind} {@code namespace/name}, its message capped
     * at Kubernetes' limit; named {@code <name>.<digest of nameSeed>}, so the same seed never
     * makes a second one.
     */
    static Event event(
            String namespace,
            String name,
            String nameSeed,
            String apiVersion,
            String kind,
            String uid,
            String type,
            String reason,
            String message,
            Instant at) {
        if (message.length() > MAX_MESSAGE) {
            message = message.substring(0, MAX_MESSAGE - 3) + "...";
        }
        String time = VolcanoCrs.rfc3339(at);
        return new EventBuilder()
                .withNewMetadata()
                .withName(name + "." + digest(nameSeed))
                .withNamespace(namespace)
                .endMetadata()
                .withNewInvolvedObject()
                .withApiVersion(apiVersion)
                .withKind(kind)
                .withName(name)
                .withNamespace(namespace)
                .withUid(uid)
                .endInvolvedObject()
                .withType(type)
                .withReason(reason)
                .withMessage(message)
                .withNewSource()
                .withComponent("lahar")
                .endSource()
                .withReportingComponent("lahar")
                .withFirstTimestamp(time)
                .withLastTimestamp(time)
                .withCount(1)
                .build();
    }

    private static String digest(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
