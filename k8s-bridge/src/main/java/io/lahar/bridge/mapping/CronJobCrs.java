package io.lahar.bridge.mapping;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.lahar.schema.CronJobActiveJob;
import io.lahar.schema.CronJobCommand;
import io.lahar.schema.CronJobEvent;
import io.lahar.schema.CronJobStatusRecord;
import io.lahar.schema.DeleteCronJob;
import io.lahar.schema.SubmitCronJob;
import java.time.Instant;
import java.util.Map;

/**
 * Volcano's batch.volcano.sh CronJob to CronJob commands, and the engine's state back: Volcano's
 * CronJobStatus on the CR, and its controller's events as Kubernetes Events about the CR (where
 * {@code kubectl describe cronjob} shows them, as Volcano's controller records them).
 */
public final class CronJobCrs {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private CronJobCrs() {}

    /** A CronJob seen for the first time; the request id comes from the CR's UID, so a re-list sends the same command. */
    public static CronJobCommand submit(GenericKubernetesResource cr, Instant time) {
        return command(cr, "k8s:" + cr.getMetadata().getUid() + ":submit", time, new SubmitCronJob(manifest(cr)));
    }

    /** A change of the spec (schedule, suspend, template, ...) updates the CronJob. */
    public static CronJobCommand resubmit(GenericKubernetesResource cr, Instant time) {
        return command(
                cr,
                "k8s:" + cr.getMetadata().getUid() + ":" + VolcanoCrs.specVersion(cr),
                time,
                new SubmitCronJob(manifest(cr)));
    }

    public static CronJobCommand delete(GenericKubernetesResource cr, Instant time) {
        return command(
                cr,
                "k8s:" + cr.getMetadata().getUid() + ":delete",
                time,
                new DeleteCronJob("CronJob " + VolcanoCrs.namespace(cr.getMetadata()) + "/"
                        + cr.getMetadata().getName() + " deleted in Kubernetes"));
    }

    private static String manifest(GenericKubernetesResource cr) {
        return VolcanoCrs.manifest(cr, VolcanoKinds.BATCH_API_VERSION, "CronJob");
    }

    private static CronJobCommand command(GenericKubernetesResource cr, String requestId, Instant time, Object body) {
        return CronJobCommand.newBuilder()
                .setRequestId(requestId)
                .setSender(VolcanoCrs.SENDER)
                .setNamespace(VolcanoCrs.namespace(cr.getMetadata()))
                .setName(cr.getMetadata().getName())
                .setTime(time)
                .setCommand(body)
                .build();
    }

    /** Volcano's CronJobStatus JSON; empty and unset fields left out, as Go's {@code omitempty} does. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> cronJobStatus(CronJobStatusRecord record) {
        ObjectNode out = NODES.objectNode();
        if (!record.getStatus().getActive().isEmpty()) {
            ArrayNode active = out.putArray("active");
            for (CronJobActiveJob a : record.getStatus().getActive()) {
                ObjectNode ref = active.addObject()
                        .put("kind", "Job")
                        .put("namespace", record.getNamespace())
                        .put("name", a.getName());
                if (a.getUid() != null) {
                    ref.put("uid", a.getUid());
                }
                ref.put("apiVersion", VolcanoKinds.BATCH_API_VERSION);
            }
        }
        if (record.getStatus().getLastScheduleTime() != null) {
            out.put("lastScheduleTime", VolcanoCrs.rfc3339(record.getStatus().getLastScheduleTime()));
        }
        if (record.getStatus().getLastSuccessfulTime() != null) {
            out.put("lastSuccessfulTime", VolcanoCrs.rfc3339(record.getStatus().getLastSuccessfulTime()));
        }
        return MAPPER.convertValue(out, Map.class);
    }

    /**
     * One of the controller's events as a Kubernetes Event about the CronJob; named after the
     * CronJob, the event's time, reason and message, so writing it again creates nothing new.
     */
    public static Event event(CronJobStatusRecord record, CronJobEvent e, String uid) {
        return CommandEvents.event(
                record.getNamespace(),
                record.getName(),
                e.getTime().toEpochMilli() + "/" + e.getReason() + "/" + e.getMessage(),
                VolcanoKinds.BATCH_API_VERSION,
                "CronJob",
                uid,
                e.getType(),
                e.getReason(),
                e.getMessage(),
                e.getTime());
    }
}
