package io.lahar.streams.job;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobState;
import io.lahar.core.api.JobStatus;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.PodGroup;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.JobPod;
import io.lahar.core.job.PodPhase;
import io.lahar.core.job.Timer;
import io.lahar.core.util.LruMap;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * The writer of a job's entry as JSON: the same bytes as {@code Manifests.jsonMapper()} writes for
 * a {@link JobEntry}, made with less work where the stream thread spends it. Why: the entry of every
 * job changed in a commit is encoded at that commit (~3.4 KB for a job of 8 pods); databind, calling
 * the records' accessors through method handles, took a fifth of the stream thread's time on the
 * lifecycle benchmark, and still a seventh with the parts below rendered once. So:
 * <ul>
 *   <li>The parts of an entry a pod event never changes — the job's spec and metadata, the pod group
 *       spec, the scheduler's pod group conditions and the command gate's verdicts (each holding the
 *       admitted job) — are written as JSON rendered once per object: the same object (by identity;
 *       the core's values are immutable) gives the same text. Remembered for the last
 *       {@code capacity} objects.</li>
 *   <li>What a pod event changes — the entry, the job info, the job and its status, the pods — is
 *       written field by field here, as databind writes the records: components in declaration
 *       order, null components and null map values left out (the mapper's NON_NULL inclusion), enums
 *       by name. JobEntryJsonTest holds each writer to databind's bytes with every component set, so
 *       a component added to one of these records fails the build until it is written here.</li>
 *   <li>Timers and plugin ConfigMaps (rare, and changing when they exist) go through databind.</li>
 * </ul>
 * Each record of the {@code job-pods} store (a bigger job's pods) is written with {@link #writePod}.
 * One instance per store, used by one thread (the stream thread of the store's task).
 */
final class JobEntryJson {

    private static final ObjectMapper PLAIN = Manifests.jsonMapper();
    private static final JsonFactory FACTORY = PLAIN.getFactory();
    private static final ObjectWriter TIMERS = PLAIN.writerFor(new TypeReference<List<Timer>>() {
    });
    private static final ObjectWriter CONFIG_MAPS = PLAIN.writerFor(new TypeReference<Map<String, Map<String, String>>>() {
    });

    private final Map<Ref, SerializableString> rendered;

    JobEntryJson(int capacity) {
        this.rendered = new LruMap<>(capacity);
    }

    void write(OutputStream out, JobEntry entry) {
        try (JsonGenerator gen = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            writeEntry(entry, gen);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void writeEntry(JobEntry entry, JsonGenerator gen) throws IOException {
        gen.writeStartObject();
        gen.writeFieldName(RECENT);
        gen.writeStartArray();
        for (Object verdict : entry.recent()) {
            writeRendered(verdict, gen);
        }
        gen.writeEndArray();
        gen.writeFieldName(INFO);
        writeInfo(entry.info(), gen);
        gen.writeFieldName(SCHEDULER_EPOCH);
        gen.writeNumber(entry.schedulerEpoch());
        gen.writeFieldName(POD_GROUP_CONDITIONS);
        writeRenderedList(entry.podGroupConditions(), gen);
        gen.writeEndObject();
    }

    private void writeInfo(JobInfo info, JsonGenerator gen) throws IOException {
        gen.writeStartObject();
        if (info.job() != null) {
            gen.writeFieldName(JOB);
            writeJob(info.job(), gen);
        }
        gen.writeFieldName(PODS);
        gen.writeStartObject();
        for (Map.Entry<String, JobPod> e : info.pods().entrySet()) {
            if (e.getValue() != null) {
                gen.writeFieldName(e.getKey());
                writePod(e.getValue(), gen);
            }
        }
        gen.writeEndObject();
        gen.writeFieldName(TIMERS_FIELD);
        if (info.timers().isEmpty()) {
            gen.writeStartArray();
            gen.writeEndArray();
        } else {
            gen.writeRawValue(TIMERS.writeValueAsString(info.timers()));
        }
        if (info.podGroupSpec() != null) {
            gen.writeFieldName(POD_GROUP_SPEC);
            writeRendered(info.podGroupSpec(), gen);
        }
        if (info.podGroupPhase() != null) {
            gen.writeFieldName(POD_GROUP_PHASE);
            gen.writeString(info.podGroupPhase().name());
        }
        gen.writeFieldName(CONFIG_MAPS_FIELD);
        if (info.configMaps().isEmpty()) {
            gen.writeStartObject();
            gen.writeEndObject();
        } else {
            gen.writeRawValue(CONFIG_MAPS.writeValueAsString(info.configMaps()));
        }
        gen.writeFieldName(CREATED_AT);
        gen.writeNumber(info.createdAt());
        gen.writeFieldName(DELETED);
        gen.writeBoolean(info.deleted());
        writeString(LAST_CAUSE, info.lastCause(), gen);
        gen.writeEndObject();
    }

    private void writeJob(Job job, JsonGenerator gen) throws IOException {
        gen.writeStartObject();
        writeString(API_VERSION, job.apiVersion(), gen);
        writeString(KIND, job.kind(), gen);
        if (job.metadata() != null) {
            gen.writeFieldName(METADATA);
            writeRendered(job.metadata(), gen);
        }
        if (job.spec() != null) {
            gen.writeFieldName(SPEC);
            writeRendered(job.spec(), gen);
        }
        if (job.status() != null) {
            gen.writeFieldName(STATUS);
            writeStatus(job.status(), gen);
        }
        gen.writeEndObject();
    }

    private static void writeStatus(JobStatus status, JsonGenerator gen) throws IOException {
        gen.writeStartObject();
        if (status.state() != null) {
            gen.writeFieldName(STATE);
            writeState(status.state(), gen);
        }
        writeNumber(MIN_AVAILABLE, status.minAvailable(), gen);
        if (status.taskStatusCount() != null) {
            gen.writeFieldName(TASK_STATUS_COUNT);
            gen.writeStartObject();
            for (Map.Entry<String, JobStatus.TaskState> e : status.taskStatusCount().entrySet()) {
                JobStatus.TaskState task = e.getValue();
                if (task == null) {
                    continue;
                }
                gen.writeFieldName(e.getKey());
                gen.writeStartObject();
                if (task.phase() != null) {
                    gen.writeFieldName(PHASE);
                    gen.writeStartObject();
                    for (Map.Entry<String, Integer> count : task.phase().entrySet()) {
                        writeNumber(count.getKey(), count.getValue(), gen);
                    }
                    gen.writeEndObject();
                }
                gen.writeEndObject();
            }
            gen.writeEndObject();
        }
        writeNumber(PENDING, status.pending(), gen);
        writeNumber(RUNNING, status.running(), gen);
        writeNumber(SUCCEEDED, status.succeeded(), gen);
        writeNumber(FAILED, status.failed(), gen);
        writeNumber(TERMINATING, status.terminating(), gen);
        writeNumber(UNKNOWN, status.unknown(), gen);
        writeNumber(VERSION, status.version(), gen);
        writeNumber(RETRY_COUNT, status.retryCount(), gen);
        writeString(RUNNING_DURATION, status.runningDuration(), gen);
        if (status.controlledResources() != null) {
            gen.writeFieldName(CONTROLLED_RESOURCES);
            gen.writeStartObject();
            for (Map.Entry<String, String> e : status.controlledResources().entrySet()) {
                if (e.getValue() != null) {
                    gen.writeFieldName(e.getKey());
                    gen.writeString(e.getValue());
                }
            }
            gen.writeEndObject();
        }
        if (status.conditions() != null) {
            gen.writeFieldName(CONDITIONS);
            gen.writeStartArray();
            for (JobStatus.JobCondition c : status.conditions()) {
                if (c == null) {
                    gen.writeNull();
                    continue;
                }
                gen.writeStartObject();
                if (c.status() != null) {
                    gen.writeFieldName(STATUS);
                    gen.writeString(c.status().name());
                }
                writeString(LAST_TRANSITION_TIME, c.lastTransitionTime(), gen);
                gen.writeEndObject();
            }
            gen.writeEndArray();
        }
        gen.writeEndObject();
    }

    private static void writeState(JobState state, JsonGenerator gen) throws IOException {
        gen.writeStartObject();
        if (state.phase() != null) {
            gen.writeFieldName(PHASE);
            gen.writeString(state.phase().name());
        }
        writeString(REASON, state.reason(), gen);
        writeString(MESSAGE, state.message(), gen);
        writeString(LAST_TRANSITION_TIME, state.lastTransitionTime(), gen);
        gen.writeEndObject();
    }

    /**
     * A pod as databind writes the record: its components in declaration order, a null exit code
     * left out (the mapper's NON_NULL inclusion). JobEntryJsonTest holds it to databind's bytes with
     * every component set, so a component added to {@link JobPod} fails the build until written here.
     */
    static void writePod(JobPod pod, JsonGenerator gen) throws IOException {
        gen.writeStartObject();
        writeString(NAME, pod.name(), gen);
        writeString(TASK, pod.task(), gen);
        gen.writeFieldName(INDEX);
        gen.writeNumber(pod.index());
        gen.writeFieldName(VERSION);
        gen.writeNumber(pod.version());
        if (pod.phase() != null) {
            gen.writeFieldName(PHASE);
            gen.writeString(PHASES[pod.phase().ordinal()]);
        }
        writeNumber(EXIT_CODE, pod.exitCode(), gen);
        gen.writeFieldName(RESTART_COUNT);
        gen.writeNumber(pod.restartCount());
        gen.writeFieldName(OBSERVED);
        gen.writeBoolean(pod.observed());
        gen.writeFieldName(TERMINATING);
        gen.writeBoolean(pod.terminating());
        gen.writeEndObject();
    }

    private static void writeString(SerializableString field, String value, JsonGenerator gen) throws IOException {
        if (value != null) {
            gen.writeFieldName(field);
            gen.writeString(value);
        }
    }

    private static void writeNumber(SerializableString field, Integer value, JsonGenerator gen) throws IOException {
        if (value != null) {
            gen.writeFieldName(field);
            gen.writeNumber(value.intValue());
        }
    }

    private static void writeNumber(String field, Integer value, JsonGenerator gen) throws IOException {
        if (value != null) {
            gen.writeFieldName(field);
            gen.writeNumber(value.intValue());
        }
    }

    /** An empty list as {@code []}; any other as the JSON rendered for that list object. */
    private void writeRenderedList(List<?> list, JsonGenerator gen) throws IOException {
        if (list.isEmpty()) {
            gen.writeStartArray();
            gen.writeEndArray();
        } else {
            writeRendered(list, gen);
        }
    }

    /** Writes the JSON databind gives for the value, rendered once per object. */
    private void writeRendered(Object value, JsonGenerator gen) throws IOException {
        Ref ref = new Ref(value);
        SerializableString json = rendered.get(ref);
        if (json == null) {
            // Kept with its UTF-8 bytes, which the generator copies as they are.
            json = new SerializedString(PLAIN.writeValueAsString(value));
            rendered.put(ref, json);
        }
        gen.writeRawValue(json);
    }

    /** Identity of an object, for the memo of rendered JSON. */
    private record Ref(Object value) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Ref r && r.value == value;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(value);
        }
    }

    // Names with their UTF-8 bytes made once: the generator copies them.
    private static final SerializableString RECENT = new SerializedString("recent");
    private static final SerializableString INFO = new SerializedString("info");
    private static final SerializableString SCHEDULER_EPOCH = new SerializedString("schedulerEpoch");
    private static final SerializableString POD_GROUP_CONDITIONS = new SerializedString("podGroupConditions");
    private static final SerializableString JOB = new SerializedString("job");
    private static final SerializableString PODS = new SerializedString("pods");
    private static final SerializableString TIMERS_FIELD = new SerializedString("timers");
    private static final SerializableString POD_GROUP_SPEC = new SerializedString("podGroupSpec");
    private static final SerializableString POD_GROUP_PHASE = new SerializedString("podGroupPhase");
    private static final SerializableString CONFIG_MAPS_FIELD = new SerializedString("configMaps");
    private static final SerializableString CREATED_AT = new SerializedString("createdAt");
    private static final SerializableString DELETED = new SerializedString("deleted");
    private static final SerializableString LAST_CAUSE = new SerializedString("lastCause");
    private static final SerializableString API_VERSION = new SerializedString("apiVersion");
    private static final SerializableString KIND = new SerializedString("kind");
    private static final SerializableString METADATA = new SerializedString("metadata");
    private static final SerializableString SPEC = new SerializedString("spec");
    private static final SerializableString STATUS = new SerializedString("status");
    private static final SerializableString STATE = new SerializedString("state");
    private static final SerializableString MIN_AVAILABLE = new SerializedString("minAvailable");
    private static final SerializableString TASK_STATUS_COUNT = new SerializedString("taskStatusCount");
    private static final SerializableString PENDING = new SerializedString("pending");
    private static final SerializableString RUNNING = new SerializedString("running");
    private static final SerializableString SUCCEEDED = new SerializedString("succeeded");
    private static final SerializableString FAILED = new SerializedString("failed");
    private static final SerializableString UNKNOWN = new SerializedString("unknown");
    private static final SerializableString RETRY_COUNT = new SerializedString("retryCount");
    private static final SerializableString RUNNING_DURATION = new SerializedString("runningDuration");
    private static final SerializableString CONTROLLED_RESOURCES = new SerializedString("controlledResources");
    private static final SerializableString CONDITIONS = new SerializedString("conditions");
    private static final SerializableString REASON = new SerializedString("reason");
    private static final SerializableString MESSAGE = new SerializedString("message");
    private static final SerializableString LAST_TRANSITION_TIME = new SerializedString("lastTransitionTime");
    private static final SerializableString NAME = new SerializedString("name");
    private static final SerializableString TASK = new SerializedString("task");
    private static final SerializableString INDEX = new SerializedString("index");
    private static final SerializableString VERSION = new SerializedString("version");
    private static final SerializableString PHASE = new SerializedString("phase");
    private static final SerializableString EXIT_CODE = new SerializedString("exitCode");
    private static final SerializableString RESTART_COUNT = new SerializedString("restartCount");
    private static final SerializableString OBSERVED = new SerializedString("observed");
    private static final SerializableString TERMINATING = new SerializedString("terminating");
    private static final SerializableString[] PHASES = java.util.Arrays.stream(PodPhase.values())
            .map(p -> new SerializedString(p.name())).toArray(SerializableString[]::new);
}
