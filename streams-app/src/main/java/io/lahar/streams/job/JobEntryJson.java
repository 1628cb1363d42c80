package io.lahar.streams.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobState;
import io.lahar.core.api.JobStatus;
import io.lahar.core.api.Manifests;
import io.lahar.core.command.JobVerdict;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.JobPod;
import io.lahar.core.job.Timer;
import io.lahar.core.util.LruMap;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * The writer of a job's entry as JSON: the same bytes as {@code Manifests.jsonMapper()} writes for
 * a {@link JobEntry}, made with less work where the stream thread spends it. Why: the entry of every
 * job changed in a commit is encoded at that commit; databind, calling the records' accessors
 * through method handles, was a large share of the stream thread's time on the lifecycle benchmark,
 * still with the parts below rendered once (docs/decisions/008-codecs-held-to-library-bytes.md). So:
 * <ul>
 *   <li>The parts of an entry a pod event never changes — the job's spec and metadata, the pod group
 *       spec, the scheduler's pod group conditions and the command gate's verdicts (each holding the
 *       admitted job) — are written as JSON rendered once per object: the same object (by identity;
 *       the core's values are immutable) gives the same bytes. Remembered per job, for the last
 *       {@code capacity} jobs written: one lookup an entry (its key), where one per part, each
 *       through an identity wrapper, was a visible share of the entry's writing.</li>
 *   <li>What a pod event changes — the entry, the job info, the job and its status, the pods — is
 *       written field by field here ({@link JsonBytes}), as databind writes the records: components
 *       in declaration order, null components and null map values left out (the mapper's NON_NULL
 *       inclusion), enums by name. JobEntryJsonTest holds each writer to databind's bytes with every
 *       component set, so a component added to one of these records fails the build until it is
 *       written here.</li>
 *   <li>Timers and plugin ConfigMaps (rare, and changing when they exist) go through databind.</li>
 * </ul>
 * Each record of the {@code job-pods} store (a bigger job's pods) is written with {@link #writePod}.
 * One instance per store, used by one thread (the stream thread of the store's task).
 */
final class JobEntryJson {

    private static final ObjectMapper PLAIN = Manifests.jsonMapper();
    private static final ObjectWriter TIMERS = PLAIN.writerFor(new TypeReference<List<Timer>>() {});
    private static final ObjectWriter CONFIG_MAPS =
            PLAIN.writerFor(new TypeReference<Map<String, Map<String, String>>>() {});

    private final Map<String, Parts> rendered;

    JobEntryJson(int capacity) {
        this.rendered = new LruMap<>(capacity);
    }

    /** The JSON of a job's parts, each beside the object it was rendered from. */
    private static final class Parts {
        private static final int POD_GROUP_CONDITIONS = 0;
        private static final int POD_GROUP_SPEC = 1;
        private static final int METADATA = 2;
        private static final int SPEC = 3;
        /** The verdicts' slots follow, by their place in the entry's list. */
        private static final int VERDICTS = 4;

        private Object[] from = new Object[VERDICTS + 2];
        private byte[][] json = new byte[VERDICTS + 2][];

        byte[] of(int slot, Object value) {
            if (slot >= from.length) {
                from = java.util.Arrays.copyOf(from, slot + 1);
                json = java.util.Arrays.copyOf(json, slot + 1);
            }
            if (from[slot] != value || json[slot] == null) {
                json[slot] = databind(PLAIN.writer(), value);
                from[slot] = value;
            }
            return json[slot];
        }
    }

    /** {@code key}: the job's, under which the JSON of its unchanging parts is remembered. */
    void write(JsonBytes out, String key, JobEntry entry) {
        Parts parts = rendered.get(key);
        if (parts == null) {
            parts = new Parts();
            rendered.put(key, parts);
        }
        out.startObject();
        out.field(RECENT);
        out.startArray();
        List<JobVerdict> recent = entry.recent();
        for (int i = 0; i < recent.size(); i++) {
            out.rawValue(parts.of(Parts.VERDICTS + i, recent.get(i)));
        }
        out.endArray();
        out.field(INFO);
        writeInfo(entry.info(), parts, out);
        out.field(SCHEDULER_EPOCH);
        out.value(entry.schedulerEpoch());
        out.field(POD_GROUP_CONDITIONS);
        if (entry.podGroupConditions().isEmpty()) {
            out.rawValue(EMPTY_ARRAY);
        } else {
            out.rawValue(parts.of(Parts.POD_GROUP_CONDITIONS, entry.podGroupConditions()));
        }
        out.endObject();
    }

    private void writeInfo(JobInfo info, Parts parts, JsonBytes out) {
        out.startObject();
        if (info.job() != null) {
            out.field(JOB);
            writeJob(info.job(), parts, out);
        }
        out.field(PODS);
        out.startObject();
        for (Map.Entry<String, JobPod> e : info.pods().entrySet()) {
            if (e.getValue() != null) {
                out.field(e.getKey());
                writePod(e.getValue(), out);
            }
        }
        out.endObject();
        out.field(TIMERS_FIELD);
        if (info.timers().isEmpty()) {
            out.rawValue(EMPTY_ARRAY);
        } else {
            out.rawValue(databind(TIMERS, info.timers()));
        }
        if (info.podGroupSpec() != null) {
            out.field(POD_GROUP_SPEC);
            out.rawValue(parts.of(Parts.POD_GROUP_SPEC, info.podGroupSpec()));
        }
        if (info.podGroupPhase() != null) {
            out.field(POD_GROUP_PHASE);
            out.value(info.podGroupPhase().name());
        }
        out.field(CONFIG_MAPS_FIELD);
        if (info.configMaps().isEmpty()) {
            out.rawValue(EMPTY_OBJECT);
        } else {
            out.rawValue(databind(CONFIG_MAPS, info.configMaps()));
        }
        out.field(CREATED_AT);
        out.value(info.createdAt());
        out.field(DELETED);
        out.value(info.deleted());
        string(LAST_CAUSE, info.lastCause(), out);
        out.endObject();
    }

    private void writeJob(Job job, Parts parts, JsonBytes out) {
        out.startObject();
        string(API_VERSION, job.apiVersion(), out);
        string(KIND, job.kind(), out);
        if (job.metadata() != null) {
            out.field(METADATA);
            out.rawValue(parts.of(Parts.METADATA, job.metadata()));
        }
        if (job.spec() != null) {
            out.field(SPEC);
            out.rawValue(parts.of(Parts.SPEC, job.spec()));
        }
        if (job.status() != null) {
            out.field(STATUS);
            writeStatus(job.status(), out);
        }
        out.endObject();
    }

    private static void writeStatus(JobStatus status, JsonBytes out) {
        out.startObject();
        if (status.state() != null) {
            out.field(STATE);
            writeState(status.state(), out);
        }
        number(MIN_AVAILABLE, status.minAvailable(), out);
        if (status.taskStatusCount() != null) {
            out.field(TASK_STATUS_COUNT);
            out.startObject();
            for (Map.Entry<String, JobStatus.TaskState> e :
                    status.taskStatusCount().entrySet()) {
                JobStatus.TaskState task = e.getValue();
                if (task == null) {
                    continue;
                }
                out.field(e.getKey());
                out.startObject();
                if (task.phase() != null) {
                    out.field(PHASE);
                    out.startObject();
                    for (Map.Entry<String, Integer> count : task.phase().entrySet()) {
                        if (count.getValue() != null) {
                            out.field(count.getKey());
                            out.value(count.getValue().intValue());
                        }
                    }
                    out.endObject();
                }
                out.endObject();
            }
            out.endObject();
        }
        number(PENDING, status.pending(), out);
        number(RUNNING, status.running(), out);
        number(SUCCEEDED, status.succeeded(), out);
        number(FAILED, status.failed(), out);
        number(TERMINATING, status.terminating(), out);
        number(UNKNOWN, status.unknown(), out);
        number(VERSION, status.version(), out);
        number(RETRY_COUNT, status.retryCount(), out);
        string(RUNNING_DURATION, status.runningDuration(), out);
        if (status.controlledResources() != null) {
            out.field(CONTROLLED_RESOURCES);
            out.startObject();
            for (Map.Entry<String, String> e : status.controlledResources().entrySet()) {
                if (e.getValue() != null) {
                    out.field(e.getKey());
                    out.value(e.getValue());
                }
            }
            out.endObject();
        }
        if (status.conditions() != null) {
            out.field(CONDITIONS);
            out.startArray();
            for (JobStatus.JobCondition c : status.conditions()) {
                if (c == null) {
                    out.nullValue();
                    continue;
                }
                out.startObject();
                if (c.status() != null) {
                    out.field(STATUS);
                    out.value(c.status().name());
                }
                string(LAST_TRANSITION_TIME, c.lastTransitionTime(), out);
                out.endObject();
            }
            out.endArray();
        }
        out.endObject();
    }

    private static void writeState(JobState state, JsonBytes out) {
        out.startObject();
        if (state.phase() != null) {
            out.field(PHASE);
            out.value(state.phase().name());
        }
        string(REASON, state.reason(), out);
        string(MESSAGE, state.message(), out);
        string(LAST_TRANSITION_TIME, state.lastTransitionTime(), out);
        out.endObject();
    }

    /**
     * A pod as databind writes the record: its components in declaration order, a null exit code
     * left out (the mapper's NON_NULL inclusion). JobEntryJsonTest holds it to databind's bytes with
     * every component set, so a component added to {@link JobPod} fails the build until written here.
     */
    static void writePod(JobPod pod, JsonBytes out) {
        out.startObject();
        string(NAME, pod.name(), out);
        string(TASK, pod.task(), out);
        out.field(INDEX);
        out.value(pod.index());
        out.field(VERSION);
        out.value(pod.version());
        if (pod.phase() != null) {
            out.field(PHASE);
            out.value(pod.phase().name());
        }
        number(EXIT_CODE, pod.exitCode(), out);
        out.field(RESTART_COUNT);
        out.value(pod.restartCount());
        out.field(OBSERVED);
        out.value(pod.observed());
        out.field(TERMINATING);
        out.value(pod.terminating());
        string(NODE, pod.node(), out);
        out.endObject();
    }

    private static void string(byte[] field, String value, JsonBytes out) {
        if (value != null) {
            out.field(field);
            out.value(value);
        }
    }

    private static void number(byte[] field, Integer value, JsonBytes out) {
        if (value != null) {
            out.field(field);
            out.value(value.intValue());
        }
    }

    private static byte[] databind(ObjectWriter writer, Object value) {
        try {
            return writer.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final byte[] EMPTY_ARRAY = {'[', ']'};
    private static final byte[] EMPTY_OBJECT = {'{', '}'};
    private static final byte[] RECENT = JsonBytes.name("recent");
    private static final byte[] INFO = JsonBytes.name("info");
    private static final byte[] SCHEDULER_EPOCH = JsonBytes.name("schedulerEpoch");
    private static final byte[] POD_GROUP_CONDITIONS = JsonBytes.name("podGroupConditions");
    private static final byte[] JOB = JsonBytes.name("job");
    private static final byte[] PODS = JsonBytes.name("pods");
    private static final byte[] TIMERS_FIELD = JsonBytes.name("timers");
    private static final byte[] POD_GROUP_SPEC = JsonBytes.name("podGroupSpec");
    private static final byte[] POD_GROUP_PHASE = JsonBytes.name("podGroupPhase");
    private static final byte[] CONFIG_MAPS_FIELD = JsonBytes.name("configMaps");
    private static final byte[] CREATED_AT = JsonBytes.name("createdAt");
    private static final byte[] DELETED = JsonBytes.name("deleted");
    private static final byte[] LAST_CAUSE = JsonBytes.name("lastCause");
    private static final byte[] API_VERSION = JsonBytes.name("apiVersion");
    private static final byte[] KIND = JsonBytes.name("kind");
    private static final byte[] METADATA = JsonBytes.name("metadata");
    private static final byte[] SPEC = JsonBytes.name("spec");
    private static final byte[] STATUS = JsonBytes.name("status");
    private static final byte[] STATE = JsonBytes.name("state");
    private static final byte[] MIN_AVAILABLE = JsonBytes.name("minAvailable");
    private static final byte[] TASK_STATUS_COUNT = JsonBytes.name("taskStatusCount");
    private static final byte[] PENDING = JsonBytes.name("pending");
    private static final byte[] RUNNING = JsonBytes.name("running");
    private static final byte[] SUCCEEDED = JsonBytes.name("succeeded");
    private static final byte[] FAILED = JsonBytes.name("failed");
    private static final byte[] UNKNOWN = JsonBytes.name("unknown");
    private static final byte[] RETRY_COUNT = JsonBytes.name("retryCount");
    private static final byte[] RUNNING_DURATION = JsonBytes.name("runningDuration");
    private static final byte[] CONTROLLED_RESOURCES = JsonBytes.name("controlledResources");
    private static final byte[] CONDITIONS = JsonBytes.name("conditions");
    private static final byte[] REASON = JsonBytes.name("reason");
    private static final byte[] MESSAGE = JsonBytes.name("message");
    private static final byte[] LAST_TRANSITION_TIME = JsonBytes.name("lastTransitionTime");
    private static final byte[] NAME = JsonBytes.name("name");
    private static final byte[] TASK = JsonBytes.name("task");
    private static final byte[] INDEX = JsonBytes.name("index");
    private static final byte[] VERSION = JsonBytes.name("version");
    private static final byte[] PHASE = JsonBytes.name("phase");
    private static final byte[] EXIT_CODE = JsonBytes.name("exitCode");
    private static final byte[] RESTART_COUNT = JsonBytes.name("restartCount");
    private static final byte[] NODE = JsonBytes.name("node");
    private static final byte[] OBSERVED = JsonBytes.name("observed");
    private static final byte[] TERMINATING = JsonBytes.name("terminating");
}
