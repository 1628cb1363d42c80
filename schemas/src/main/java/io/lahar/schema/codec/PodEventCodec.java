package io.lahar.schema.codec;

import io.lahar.core.job.Input;
import io.lahar.core.job.PodPhase;
import io.lahar.schema.ContainerStatus;
import io.lahar.schema.PodEvent;
import java.io.IOException;
import org.apache.avro.io.Decoder;

/** A {@code lahar.pod-events} record to the engine's {@link Input.PodObserved}. */
public final class PodEventCodec {

    private PodEventCodec() {}

    /**
     * The pod as the engine sees it. A phase this engine does not know (the schema keeps phases
     * open) reads as Unknown, as Kubernetes' own clients do. A pod deleted by someone else
     * ({@code deletedByOthers}, Volcano's PodEvicted) is gone for the engine, which tells it from
     * a deletion it asked for itself. The exit code is the first terminated container's.
     *
     * @throws IllegalArgumentException with the field path, for an event that names no pod or task
     */
    public static Input.PodObserved toInput(PodEvent event) {
        return fields(event).toInput();
    }

    /**
     * What the engine reads of a pod event, as written: whose pod it is, and what became of it (the
     * containers folded into the first exit code and the most restarts, the two deletion flags
     * into {@code gone}).
     */
    public record Fields(
            String namespace,
            String job,
            String jobUid,
            String pod,
            String task,
            int index,
            int jobVersion,
            String phase,
            Integer exitCode,
            int restarts,
            boolean gone,
            long time,
            String node) {

        /** See {@link PodEventCodec#toInput(PodEvent)}. */
        public Input.PodObserved toInput() {
            if (pod == null || pod.isEmpty()) {
                throw new IllegalArgumentException("pod: the pod's name is required");
            }
            if (task == null || task.isEmpty()) {
                throw new IllegalArgumentException("task: the pod's task (volcano.sh/task-spec) is required");
            }
            if (index < 0) {
                throw new IllegalArgumentException("index: must be >= 0, got " + index);
            }
            return new Input.PodObserved(
                    pod,
                    task,
                    index,
                    jobVersion,
                    PodPhase.of(phase).orElse(PodPhase.Unknown),
                    exitCode,
                    restarts,
                    gone,
                    time,
                    node);
        }
    }

    /** The fields of a decoded event. */
    public static Fields fields(PodEvent event) {
        Integer exitCode = null;
        int restarts = 0;
        for (ContainerStatus c : event.getContainers()) {
            if (exitCode == null && c.getExitCode() != null) {
                exitCode = c.getExitCode();
            }
            restarts = Math.max(restarts, c.getRestartCount());
        }
        return new Fields(
                event.getNamespace(),
                event.getJob(),
                event.getJobUid(),
                event.getPod(),
                event.getTask(),
                event.getIndex(),
                event.getJobVersion(),
                event.getPhase(),
                exitCode,
                restarts,
                event.getDeleted() || event.getDeletedByOthers(),
                event.getTime().toEpochMilli(),
                event.getNode());
    }

    /**
     * The fields of an event read straight from its Avro binary, which must have been written with
     * {@link PodEvent}'s own schema (its fields in their order; the caller checks the writer's
     * schema). Why: the lifecycle reads a pod event per record, and building the whole
     * {@code PodEvent} — every string, the container records, an {@code Instant} — through Avro's
     * generic machinery was a visible share of its stream thread; what it does not need (the pod's uid,
     * reasons, messages, container names) is skipped here. CodecTest holds this to
     * {@link #fields(PodEvent)} over events with every field set and unset, so a change to the
     * schema fails the build until it is read here.
     */
    public static Fields read(Decoder in) throws IOException {
        String namespace = in.readString();
        String job = in.readString();
        String pod = in.readString();
        skipOptionalString(in); // uid
        String jobUid = isNull(in) ? null : in.readString();
        String task = in.readString();
        int index = in.readInt();
        int jobVersion = in.readInt();
        String phase = in.readString();
        Integer exitCode = null;
        int restarts = 0;
        for (long n = in.readArrayStart(); n != 0; n = in.arrayNext()) {
            for (long i = 0; i < n; i++) {
                in.skipString(); // name
                Integer code = isNull(in) ? null : Integer.valueOf(in.readInt());
                skipOptionalString(in); // reason
                int restartCount = in.readInt();
                if (exitCode == null) {
                    exitCode = code;
                }
                restarts = Math.max(restarts, restartCount);
            }
        }
        // The node, for the job's view of its pods (lahar job view); most events of a pod name the same one.
        String node = isNull(in) ? null : in.readString();
        boolean deletedByOthers = in.readBoolean();
        boolean deleted = in.readBoolean();
        skipOptionalString(in); // reason
        skipOptionalString(in); // message
        long time = in.readLong();
        if (!isNull(in)) in.readLong(); // scheduledTime, the scheduler's
        return new Fields(
                namespace,
                job,
                jobUid,
                pod,
                task,
                index,
                jobVersion,
                phase,
                exitCode,
                restarts,
                deleted || deletedByOthers,
                time,
                node);
    }

    /** A {@code ["null", "string"]} union skipped. */
    private static void skipOptionalString(Decoder in) throws IOException {
        if (!isNull(in)) {
            in.skipString();
        }
    }

    /** Which branch of a {@code ["null", T]} union follows: true for null (which has no bytes). */
    private static boolean isNull(Decoder in) throws IOException {
        int branch = in.readIndex();
        if (branch != 0 && branch != 1) {
            throw new IOException("union branch " + branch + " of a field with two");
        }
        return branch == 0;
    }
}
