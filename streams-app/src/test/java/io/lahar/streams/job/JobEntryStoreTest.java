package io.lahar.streams.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.AdmissionLimits;
import io.lahar.core.api.Job;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.api.Queue;
import io.lahar.core.command.JobCommands;
import io.lahar.core.command.JobRequest;
import io.lahar.core.job.Input;
import io.lahar.core.job.JobController;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.JobPod;
import io.lahar.core.job.PodPhase;
import io.lahar.schema.codec.JobStatusCodec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-back cache of decoded job entries in front of the {@code jobs} store, and the
 * job-status records with the manifest rendered once per spec.
 */
class JobEntryStoreTest {

    private static final String JOB = """
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata:
              name: j
            spec:
              tasks:
              - name: w
                replicas: 2
                template:
                  spec:
                    containers:
                    - name: w
                      image: busybox
            """;

    @TempDir
    Path stateDir;

    private final JobController controller = new JobController();
    private final JobStore.Codec codec = new JobStore.Codec();
    private JobEntryStore store;
    private KeyValueStore<String, byte[]> jobs;
    private KeyValueStore<String, byte[]> pods;

    /** The entry cache in front of the jobs and job-pods stores, as the lifecycle processor has them (a task reopened: the same files). */
    private JobEntryStore open(int capacity) {
        close();
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "entry-store-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        var context = new MockProcessorContext<>(props, new TaskId(0, 0), stateDir.toFile()).getStateStoreContext();
        jobs = Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(JobStore.NAME), Serdes.String(), Serdes.ByteArray())
                .withLoggingDisabled()
                .build();
        jobs.init(context, jobs);
        pods = JobStore.podsBuilder().withLoggingDisabled().build();
        pods.init(context, pods);
        return new JobEntryStore(jobs, pods, new JobStore.Codec(), capacity);
    }

    /** The task closed dirty: the cache dropped, the stores closed without writing it. */
    @AfterEach
    void close() {
        if (store != null) {
            store.discard();
        }
        for (KeyValueStore<String, byte[]> s : java.util.Arrays.asList(jobs, pods)) {
            if (s != null && s.isOpen()) {
                s.close();
            }
        }
    }

    private static Job admitted() {
        // The store must hold jobs bigger than the default pod limit: a deployment may raise it.
        AdmissionContext ctx = AdmissionContext.of(List.of(
                        AdmissionContext.openQueue(Queue.ROOT, null),
                        AdmissionContext.openQueue(Queue.DEFAULT, Queue.ROOT)))
                .withLimits(new AdmissionLimits(AdmissionLimits.CEILING_MAX_PODS_PER_JOB));
        return JobCommands.decide(null, new JobRequest("r", "t", "default", "j", 0, new JobRequest.Submit(JOB)), ctx)
                .next()
                .job();
    }

    private JobInfo apply(JobInfo info, Input... inputs) {
        for (Input in : inputs) {
            info = controller.apply(info, in).state();
        }
        return info;
    }

    private JobInfo submitted() {
        return apply(
                JobInfo.empty(), new Input.Submit(admitted(), 0), new Input.PodGroupObserved(PodGroupPhase.Inqueue, 1));
    }

    private JobInfo running(JobInfo info, int pod) {
        return apply(info, new Input.PodObserved("j-w-" + pod, "w", pod, 0, PodPhase.Running, null, 0, false, 2 + pod));
    }

    private static JobEntry entry(JobInfo info) {
        return new JobEntry(List.of(), info, 0, List.of());
    }

    /** The entry as committed: the jobs store's bytes with the job's records of the job-pods store. */
    private JobEntry stored(String key) {
        byte[] bytes = jobs.get(key);
        if (bytes == null) {
            return null;
        }
        JobEntry entry = codec.decode(bytes);
        Map<String, JobPod> all = new TreeMap<>(entry.info().pods());
        Map<String, JobPod> records = storedPods(key);
        assertThat(entry.info().pods().isEmpty() || records.isEmpty())
                .as("pods in the entry or in records, not both")
                .isTrue();
        all.putAll(records);
        return entry.withInfo(entry.info().withPods(all));
    }

    private Map<String, JobPod> storedPods(String key) {
        return PodBuckets.read(key, pods, codec);
    }

    /** The job-pods store's keys for the job. */
    private List<String> bucketKeys(String key) {
        List<String> keys = new java.util.ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = pods.prefixScan(key + "/", new StringSerializer())) {
            it.forEachRemaining(kv -> keys.add(kv.key));
        }
        return keys;
    }

    @Test
    void anEntryIsKeptAsAnObjectAndReachesTheStoreWhenItIsFlushed() {
        store = open(16);
        JobEntry first = entry(submitted());
        store.save("default/j", first);
        JobEntry second = entry(running(first.info(), 0));
        store.save("default/j", second);

        assertThat(store.load("default/j")).isSameAs(second);
        assertThat(stored("default/j")).as("not written before the commit").isNull();
        assertThat(store.unwritten()).isEqualTo(1);

        store.commit(); // what the engine calls before Kafka Streams commits the task
        assertThat(stored("default/j")).isEqualTo(second);
        assertThat(store.unwritten()).isZero();
        assertThat(store.load("never/seen")).isEqualTo(JobEntry.empty());
    }

    @Test
    void aTaskClosedWithoutCommitLosesOnlyWhatItDidNotFlushAndReadsTheStoreAgain() {
        store = open(16);
        JobEntry committed = entry(submitted());
        store.save("default/j", committed);
        store.commit();
        store.save("default/j", entry(running(committed.info(), 0)));

        store = open(16);
        JobEntry reloaded = store.load("default/j");
        assertThat(reloaded).isEqualTo(committed).isNotSameAs(committed);
    }

    @Test
    void anEvictedChangedEntryIsWrittenBeforeItIsDropped() {
        store = open(2);
        JobEntry a = entry(submitted());
        store.save("ns/a", a);
        store.save("ns/b", a);
        store.save("ns/c", a);

        assertThat(stored("ns/a")).as("the least recently used, evicted").isEqualTo(a);
        assertThat(stored("ns/b")).isNull();
        assertThat(store.load("ns/a")).isEqualTo(a).isNotSameAs(a);
        store.commit();
        assertThat(stored("ns/b")).isEqualTo(a);
        assertThat(stored("ns/c")).isEqualTo(a);
    }

    @Test
    void aJobEvictedBetweenItsLoadAndItsSaveIsSavedAndWrittenOnce() {
        store = open(2);
        JobEntry a = entry(submitted());
        store.save("ns/a", a);
        store.commit();
        String key = "ns/a";
        JobEntry loaded = store.load(key);
        // Two other jobs saved meanwhile push a out of the cache (clean: nothing written).
        store.save("ns/b", a);
        store.save("ns/c", a);
        JobEntry changed = entry(running(loaded.info(), 0));
        store.save(key, changed);
        store.save(key, entry(running(changed.info(), 1)));

        // a came back into the cache and pushed b out, which was written then.
        assertThat(stored("ns/b")).isEqualTo(a);
        assertThat(store.unwritten()).as("c and a, each once").isEqualTo(2);
        assertThat(store.load(key).info().pods().get("j-w-1").phase()).isEqualTo(PodPhase.Running);
        store.commit();
        assertThat(store.unwritten()).isZero();
        assertThat(stored(key).info().pods().get("j-w-1").phase()).isEqualTo(PodPhase.Running);
        assertThat(stored("ns/c")).isEqualTo(a);
    }

    @Test
    void anEntryChangedAgainAfterAFlushIsWrittenAtTheNext() {
        store = open(16);
        JobEntry first = entry(submitted());
        store.save("default/j", first);
        store.commit();
        JobEntry second = entry(running(store.load("default/j").info(), 0));
        store.save("default/j", second);
        assertThat(store.unwritten()).isEqualTo(1);
        store.commit();
        assertThat(stored("default/j")).isEqualTo(second);
    }

    @Test
    void aNewOrRespecifiedEntryIsSizeCheckedWhenSavedAStatusChangeWhenFlushed() {
        store = open(16);
        String huge = "x".repeat(JobStore.MAX_BYTES);
        JobEntry tooBig = new JobEntry(
                List.of(),
                submitted(),
                0,
                List.of(new io.lahar.core.api.PodGroup.PodGroupCondition(
                        "Unschedulable", "True", null, null, null, huge)));
        assertThatThrownBy(() -> store.save("ns/new", tooBig))
                .hasMessageContaining("ns/new")
                .hasMessageContaining("limit");
        assertThat(store.load("ns/new")).as("nothing kept").isEqualTo(JobEntry.empty());

        JobEntry small = entry(submitted());

        JobInfo i = small.info();
        // An equal spec, but another object: an update went through admission.
        JobInfo respecified = new JobInfo(
                i.job().withSpec(copy(i.job().spec())),
                i.pods(),
                i.timers(),
                i.podGroupSpec(),
                i.podGroupPhase(),
                i.configMaps(),
                i.createdAt(),
                i.deleted(),
                i.lastCause());
        store.save("ns/other", small);
        store.commit();
        JobEntry bigRespec = new JobEntry(List.of(), respecified, 0, tooBig.podGroupConditions());
        assertThatThrownBy(() -> store.save("ns/other", bigRespec)).hasMessageContaining("ns/other");
        assertThat(store.load("ns/other")).isEqualTo(small);

        store.save("ns/grows", small);
        store.commit();
        // Same spec object, so not checked (nor encoded) when saved; the commit fails loudly instead.
        store.save("ns/grows", new JobEntry(List.of(), small.info(), 0, tooBig.podGroupConditions()));
        assertThatThrownBy(store::commit).hasMessageContaining("ns/grows").hasMessageContaining("limit");
    }

    private JobInfo submitted(int replicas) {
        // The store must hold jobs bigger than the default pod limit: a deployment may raise it.
        AdmissionContext ctx = AdmissionContext.of(List.of(
                        AdmissionContext.openQueue(Queue.ROOT, null),
                        AdmissionContext.openQueue(Queue.DEFAULT, Queue.ROOT)))
                .withLimits(new AdmissionLimits(AdmissionLimits.CEILING_MAX_PODS_PER_JOB));
        Job job = JobCommands.decide(
                        null,
                        new JobRequest(
                                "r",
                                "t",
                                "default",
                                "j",
                                0,
                                new JobRequest.Submit(JOB.replace("replicas: 2", "replicas: " + replicas))),
                        ctx)
                .next()
                .job();
        return apply(JobInfo.empty(), new Input.Submit(job, 0), new Input.PodGroupObserved(PodGroupPhase.Inqueue, 1));
    }

    @Test
    void aSmallJobsPodsStayInItsEntry() {
        store = open(16);
        JobEntry small = entry(running(submitted(JobEntryStore.INLINE_PODS), 0));
        store.save("default/j", small);
        store.commit();

        assertThat(codec.decode(jobs.get("default/j")).info().pods()).hasSize(JobEntryStore.INLINE_PODS);
        assertThat(storedPods("default/j")).isEmpty();
        assertThat(stored("default/j")).isEqualTo(small);
    }

    @Test
    void aBigJobsPodsAreBucketsOfSixtyFourByTaskAndIndexRewrittenWhenOneOfTheirPodsChanges() {
        store = open(16);
        JobEntry submitted = entry(submitted(400));
        store.save("default/j", submitted);
        store.commit();
        assertThat(codec.decode(jobs.get("default/j")).info().pods()).isEmpty();
        assertThat(bucketKeys("default/j"))
                .containsExactlyInAnyOrder(
                        "default/j/w/0",
                        "default/j/w/1",
                        "default/j/w/2",
                        "default/j/w/3",
                        "default/j/w/4",
                        "default/j/w/5",
                        "default/j/w/6");
        assertThat(codec.decodePods(pods.get("default/j/w/6")))
                .extracting(JobPod::index)
                .containsExactlyInAnyOrder(
                        java.util.stream.IntStream.range(384, 400).boxed().toArray(Integer[]::new));
        assertThat(storedPods("default/j")).isEqualTo(submitted.info().pods());

        JobEntry oneRunning = entry(running(submitted.info(), 0));
        store.save("default/j", oneRunning);
        pods.delete("default/j/w/1"); // not rewritten unless one of its pods changed
        store.commit();
        assertThat(bucketKeys("default/j"))
                .containsExactlyInAnyOrder(
                        "default/j/w/0",
                        "default/j/w/2",
                        "default/j/w/3",
                        "default/j/w/4",
                        "default/j/w/5",
                        "default/j/w/6");
        assertThat(storedPods("default/j").get("j-w-0").phase()).isEqualTo(PodPhase.Running);

        Map<String, JobPod> left = new TreeMap<>(oneRunning.info().pods());
        left.remove("j-w-0");
        for (int i = 384; i < 400; i++) {
            left.remove("j-w-" + i);
        }
        store.save("default/j", entry(oneRunning.info().withPods(left)));
        store.commit();
        assertThat(bucketKeys("default/j"))
                .as("an empty bucket is deleted")
                .containsExactlyInAnyOrder(
                        "default/j/w/0", "default/j/w/2", "default/j/w/3", "default/j/w/4", "default/j/w/5");
        assertThat(storedPods("default/j"))
                .doesNotContainKey("j-w-0")
                .containsKey("j-w-1")
                .hasSize(63 + 4 * 64);
    }

    @Test
    void aJobThatCrossesTheLineHasItsPodsMovedAtTheNextFlush() {
        store = open(16);
        JobInfo big = submitted(JobEntryStore.INLINE_PODS + 10);
        store.save("default/j", entry(big));
        store.commit();
        assertThat(storedPods("default/j")).hasSize(JobEntryStore.INLINE_PODS + 10);

        Map<String, JobPod> fewer = new TreeMap<>(big.pods());
        for (int i = 0; i < 10; i++) {
            fewer.remove("j-w-" + i);
        }
        JobEntry scaledDown = entry(big.withPods(fewer));
        store.save("default/j", scaledDown);
        store.commit();
        assertThat(storedPods("default/j"))
                .as("records deleted, the pods back in the entry")
                .isEmpty();
        assertThat(stored("default/j")).isEqualTo(scaledDown);

        JobEntry scaledUp = entry(big);
        store.save("default/j", scaledUp);
        store.commit();
        assertThat(codec.decode(jobs.get("default/j")).info().pods()).isEmpty();
        assertThat(stored("default/j")).isEqualTo(scaledUp);
        store = open(16);
        assertThat(store.load("default/j")).isEqualTo(scaledUp);
    }

    /** A job of 8,000 pods: its entry alone would be ~1.1 MB, over one changelog record. */
    @Test
    void aJobOfThousandsOfPodsIsStoredAndReadBackWhole() {
        store = open(16);
        JobInfo info = submitted(8000);
        assertThat(info.pods()).hasSize(8000);
        JobEntry big = entry(running(info, 7));
        store.save("default/j", big);
        store.commit();

        assertThat(jobs.get("default/j").length).isLessThan(16 * 1024);
        assertThat(stored("default/j")).isEqualTo(big);
        store = open(16);
        assertThat(store.load("default/j")).isEqualTo(big);
    }

    private static io.lahar.core.api.JobSpec copy(io.lahar.core.api.JobSpec s) {
        return new io.lahar.core.api.JobSpec(
                s.schedulerName(),
                s.minAvailable(),
                s.volumes(),
                s.tasks(),
                s.policies(),
                s.plugins(),
                s.runningEstimate(),
                s.queue(),
                s.maxRetry(),
                s.ttlSecondsAfterFinished(),
                s.priorityClassName(),
                s.minSuccess(),
                s.networkTopology());
    }

    @Test
    void aStatusRecordIsTheCodecsRecordWithTheManifestRenderedOncePerSpec() {
        StatusRecords records = new StatusRecords(16);
        JobInfo info = submitted();
        for (int pod = 0; pod < 2; pod++) {
            info = running(info, pod);
            Job job = info.job();
            assertSameRecord(records.toRecord("default/j", job, 100 + pod), JobStatusCodec.toRecord(job, 100 + pod));
        }
        Job rescaled = info.job()
                .withSpec(new io.lahar.core.api.JobSpec(
                        null,
                        1,
                        null,
                        info.job().spec().tasks(),
                        null,
                        null,
                        null,
                        "default",
                        3,
                        null,
                        null,
                        null,
                        null));
        assertSameRecord(records.toRecord("default/j", rescaled, 200), JobStatusCodec.toRecord(rescaled, 200));
        Job renamed = rescaled.withMetadata(rescaled.metadata().withName("k"));
        assertSameRecord(records.toRecord("default/j", renamed, 300), JobStatusCodec.toRecord(renamed, 300));
        assertThatThrownBy(() -> records.toRecord("default/j", renamed.withStatus(null), 400))
                .as("a job without a phase fails where the record is made, not in the sink")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("status.state.phase: ");
    }

    /** The value is the record, and writes the record's own binary. */
    private static void assertSameRecord(StatusRecords.Value value, io.lahar.schema.JobStatusRecord record) {
        assertThat(value.record()).isEqualTo(record);
        try {
            org.apache.avro.specific.SpecificData data = new org.apache.avro.specific.SpecificData();
            data.addLogicalTypeConversion(new org.apache.avro.data.TimeConversions.TimestampMillisConversion());
            java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
            org.apache.avro.io.BinaryEncoder encoder =
                    org.apache.avro.io.EncoderFactory.get().binaryEncoder(expected, null);
            new org.apache.avro.specific.SpecificDatumWriter<io.lahar.schema.JobStatusRecord>(record.getSchema(), data)
                    .write(record, encoder);
            encoder.flush();
            java.io.ByteArrayOutputStream written = new java.io.ByteArrayOutputStream();
            org.apache.avro.io.BinaryEncoder direct =
                    org.apache.avro.io.EncoderFactory.get().binaryEncoder(written, null);
            value.write(direct);
            direct.flush();
            assertThat(written.toByteArray()).isEqualTo(expected.toByteArray());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void statusRecordsRememberWhatWasShownUntilATombstoneOrADroppedTransaction() {
        StatusRecords records = new StatusRecords(16);
        assertThat(records.shown("default/j")).as("nothing sent yet").isNull();
        Job first = submitted().job();
        records.toRecord("default/j", first, 100);
        assertThat(records.shown("default/j")).isSameAs(first);
        Job second = running(submitted(), 0).job();
        records.toRecord("default/j", second, 101);
        assertThat(records.shown("default/j")).isSameAs(second);

        records.forgetShown();
        assertThat(records.shown("default/j"))
                .as("the transaction that sent it was dropped")
                .isNull();
        assertSameRecord(records.toRecord("default/j", second, 102), JobStatusCodec.toRecord(second, 102));

        records.tombstone("default/j");
        assertThat(records.shown("default/j")).isNull();
    }
}
