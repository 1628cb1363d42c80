package io.lahar.schema.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.schema.JobCondition;
import io.lahar.schema.JobState;
import io.lahar.schema.JobStatus;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.Node;
import io.lahar.schema.PodEvent;
import io.lahar.schema.TaskState;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/** The caching serdes against an in-memory registry: wire format, old writers, the cache, tombstones. */
class CachingAvroSerdeTest {
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final String TOPIC = "lahar.job-status";

    private final FakeRegistry registry = new FakeRegistry();
    private final CachingAvroSerializer<JobStatusRecord> serializer =
            new CachingAvroSerializer<>(JobStatusRecord.class, registry.serializer());
    private final CachingAvroDeserializer<JobStatusRecord> deserializer =
            new CachingAvroDeserializer<>(JobStatusRecord.class, registry.deserializer());

    static JobStatusRecord status(String name, int running) {
        return JobStatusRecord.newBuilder()
                .setNamespace("default")
                .setName(name)
                .setUid("u-" + name)
                .setQueue("default")
                .setManifest("{}")
                .setTime(T0.plusSeconds(running))
                .setStatus(JobStatus.newBuilder()
                        .setState(JobState.newBuilder()
                                .setPhase("Running")
                                .setReason("PodRunning")
                                .setLastTransitionTime(T0)
                                .build())
                        .setMinAvailable(2)
                        .setTaskStatusCount(Map.of("worker", new TaskState(Map.of("Running", running))))
                        .setRunning(running)
                        .setVersion(1)
                        .setConditions(List.of(new JobCondition("Running", T0)))
                        .build())
                .build();
    }

    @Test
    void aRecordRoundTripsInTheRegistrysWireFormatByteForByte() {
        for (int i = 0; i < 3; i++) {
            JobStatusRecord record = status("tf-" + i, i);
            byte[] bytes = serializer.serialize(TOPIC, record);
            assertThat(bytes[0]).as("magic byte").isZero();
            assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt())
                    .isEqualTo(registry.idOf(JobStatusRecord.getClassSchema()));
            assertThat(bytes).as("record %d", i).isEqualTo(registry.write(JobStatusRecord.getClassSchema(), record));
            assertThat(deserializer.deserialize(TOPIC, bytes)).isEqualTo(record);
        }
        assertThat(registry.serializations)
                .as("the registry writes the first record of the topic only")
                .hasValue(1);
        serializer.serialize("another-topic", status("x", 1));
        assertThat(registry.serializations)
                .as("and the first of every other topic: its own subject")
                .hasValue(2);
    }

    @Test
    void recordsOfEverySizeKeepTheirBytesThoughTheThreadReusesItsBuffer() {
        serializer.serialize(TOPIC, status("first", 0));
        String huge = "x".repeat(400 * 1024);
        for (String manifest : List.of("{}", huge, "{\"a\":1}", "{}", huge.substring(0, 5000), "{}")) {
            JobStatusRecord record = status("tf", 1);
            record.setManifest(manifest);
            byte[] bytes = serializer.serialize(TOPIC, record);
            assertThat(bytes)
                    .as("manifest of %d chars", manifest.length())
                    .isEqualTo(registry.write(JobStatusRecord.getClassSchema(), record));
            assertThat(deserializer.deserialize(TOPIC, bytes)).isEqualTo(record);
        }
    }

    /** A value that writes its own binary, here by the generic writer of the record it carries (or fails half-way). */
    private record Direct(JobStatusRecord record, boolean failHalfWay)
            implements CachingAvroSerializer.Direct<JobStatusRecord> {
        @Override
        public void write(org.apache.avro.io.Encoder out) throws IOException {
            out.writeString(record.getNamespace());
            if (failHalfWay) {
                throw new IOException("half-way");
            }
            org.apache.avro.specific.SpecificData data = new org.apache.avro.specific.SpecificData();
            data.addLogicalTypeConversion(new org.apache.avro.data.TimeConversions.TimestampMillisConversion());
            org.apache.avro.Schema rest = JobStatusRecord.getClassSchema();
            // The namespace is written above; the rest field by field as the record's writer would.
            for (org.apache.avro.Schema.Field f :
                    rest.getFields().subList(1, rest.getFields().size())) {
                new org.apache.avro.specific.SpecificDatumWriter<>(f.schema(), data).write(record.get(f.pos()), out);
            }
        }
    }

    @Test
    void aValueThatWritesItsOwnBinaryGetsTheTopicsHeaderAndTheRegistryOnlySeesTheFirst() {
        assertThat(serializer.serialize(TOPIC, JobStatusRecord.class, null)).isNull();
        for (int i = 0; i < 3; i++) {
            JobStatusRecord record = status("tf-" + i, i);
            byte[] bytes = serializer.serialize(TOPIC, JobStatusRecord.class, new Direct(record, false));
            assertThat(bytes).as("value %d", i).isEqualTo(registry.write(JobStatusRecord.getClassSchema(), record));
            assertThat(deserializer.deserialize(TOPIC, bytes)).isEqualTo(record);
        }
        assertThat(registry.serializations)
                .as("the first value went to the registry as its record")
                .hasValue(1);
        // The header is the topic's and the class's, whichever way its first value came.
        serializer.serialize("another-topic", status("x", 1));
        JobStatusRecord other = status("y", 2);
        assertThat(serializer.serialize("another-topic", JobStatusRecord.class, new Direct(other, false)))
                .isEqualTo(registry.write(JobStatusRecord.getClassSchema(), other));
        assertThat(registry.serializations).hasValue(2);

        assertThatThrownBy(
                        () -> serializer.serialize(TOPIC, JobStatusRecord.class, new Direct(status("broken", 1), true)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("JobStatusRecord")
                .hasMessageContaining("half-way");
        JobStatusRecord next = status("next", 2);
        assertThat(serializer.serialize(TOPIC, JobStatusRecord.class, new Direct(next, false)))
                .as("nothing of the failed value is left in the thread's buffer")
                .isEqualTo(registry.write(JobStatusRecord.getClassSchema(), next));
    }

    @Test
    void aRecordThatFailsHalfWayLeavesNothingOfItInTheNext() {
        serializer.serialize(TOPIC, status("first", 0));
        JobStatusRecord broken = status("broken", 1);
        // Required: the writer fails after it has encoded the fields before it.
        broken.setStatus(null);
        assertThatThrownBy(() -> serializer.serialize(TOPIC, broken))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("JobStatusRecord");
        JobStatusRecord next = status("next", 2);
        assertThat(serializer.serialize(TOPIC, next)).isEqualTo(registry.write(JobStatusRecord.getClassSchema(), next));
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void oneSerializerWritesRecordsOfAnyGeneratedClassEachWithItsOwnSchema() {
        // A producer of several topics (tests, tools) hands one serializer records of many classes.
        org.apache.kafka.common.serialization.Serializer any = serializer;
        PodEvent event = PodEvent.newBuilder()
                .setNamespace("default")
                .setJob("tf")
                .setPod("tf-worker-0")
                .setTask("worker")
                .setIndex(0)
                .setJobVersion(0)
                .setPhase("Running")
                .setTime(T0)
                .build();
        for (int i = 0; i < 2; i++) {
            serializer.serialize(TOPIC, status("tf", i));
            byte[] bytes = any.serialize("lahar.pod-events", event);
            assertThat(bytes).as("round %d", i).isEqualTo(registry.write(PodEvent.getClassSchema(), event));
            assertThat(new CachingAvroDeserializer<>(PodEvent.class, registry.deserializer())
                            .deserialize("lahar.pod-events", bytes))
                    .isEqualTo(event);
        }
        assertThat(registry.serializations)
                .as("the registry writes the first record of each class only")
                .hasValue(2);
    }

    @Test
    void aRecordWrittenWithTheReleasedSchemaReadsIntoTheCurrentClass() throws IOException {
        Schema released = releasedSchema("0.1.0", "job-status.avsc");
        assertThat(released.toString())
                .as("a schema of its own, hence an id of its own")
                .isNotEqualTo(JobStatusRecord.getClassSchema().toString());
        JobStatusRecord record = status("old", 3);
        byte[] bytes = registry.write(released, record);

        assertThat(deserializer.deserialize(TOPIC, bytes)).isEqualTo(record);
        assertThat(deserializer.deserialize(TOPIC, bytes))
                .as("the cached reader")
                .isEqualTo(record);
        assertThat(deserializer.deserialize(TOPIC, serializer.serialize(TOPIC, record)))
                .isEqualTo(record);
        assertThat(deserializer.cachedReaders())
                .as("one reader per writer schema")
                .isEqualTo(2);
    }

    @Test
    void fieldsAddedSinceTheWritersVersionTakeTheirDefaults() {
        // Node as an older producer wrote it: without the fields added since (capacity, labels, taints, ...).
        Schema older = new Schema.Parser().parse("""
                {"type": "record", "name": "Node", "namespace": "io.lahar.schema", "fields": [
                  {"name": "name", "type": "string"},
                  {"name": "allocatable", "type": {"type": "map", "values": "string"}, "default": {}},
                  {"name": "time", "type": {"type": "long", "logicalType": "timestamp-millis"}}]}""");
        GenericRecord record = new GenericData.Record(older);
        record.put("name", "n1");
        record.put("allocatable", Map.of("cpu", "4"));
        record.put("time", T0.toEpochMilli());
        CachingAvroDeserializer<Node> nodes = new CachingAvroDeserializer<>(Node.class, registry.deserializer());

        Node node = nodes.deserialize("lahar.nodes", registry.write(older, record));

        assertThat(node.getName()).isEqualTo("n1");
        assertThat(node.getAllocatable()).containsEntry("cpu", "4");
        assertThat(node.getReady()).as("an added field takes its default").isTrue();
        assertThat(node.getUnschedulable()).isFalse();
        assertThat(node.getTaints()).isEmpty();
        assertThat(node.getTime()).isEqualTo(T0);
    }

    @Test
    void anUnknownSchemaIdIsFetchedOnceThenCached() {
        byte[] current = registry.write(JobStatusRecord.getClassSchema(), status("a", 1));
        for (int i = 0; i < 5; i++) deserializer.deserialize(TOPIC, current);
        assertThat(registry.deserializations).hasValue(1);

        Schema grown = withExtraField(JobStatusRecord.getClassSchema());
        GenericRecord newer = new GenericData.Record(grown);
        JobStatusRecord base = status("b", 2);
        for (Schema.Field f : JobStatusRecord.getClassSchema().getFields()) newer.put(f.name(), base.get(f.pos()));
        newer.put("priority", 7);
        byte[] fromANewerWriter = registry.write(grown, newer);
        for (int i = 0; i < 5; i++) {
            assertThat(deserializer.deserialize(TOPIC, fromANewerWriter))
                    .as("a newer writer's field is skipped")
                    .isEqualTo(base);
        }
        assertThat(registry.deserializations).as("one fetch per schema id").hasValue(2);
        assertThat(deserializer.cachedReaders()).isEqualTo(2);
    }

    @Test
    void aDirectReaderReadsRecordsLaidOutAsTheClassesOwnSchemaAndNoOthers() {
        CachingAvroDeserializer<PodEvent> events =
                new CachingAvroDeserializer<>(PodEvent.class, registry.deserializer());
        PodEvent event = PodEvent.newBuilder()
                .setNamespace("ns")
                .setJob("tf")
                .setPod("tf-worker-0")
                .setTask("worker")
                .setIndex(0)
                .setJobVersion(1)
                .setPhase("Running")
                .setTime(T0)
                .build();
        java.util.concurrent.atomic.AtomicInteger direct = new java.util.concurrent.atomic.AtomicInteger();
        CachingAvroDeserializer.DirectReader<String> pod = in -> {
            direct.incrementAndGet();
            in.readString();
            in.readString();
            return in.readString();
        };

        byte[] own = registry.write(PodEvent.getClassSchema(), event);
        assertThat(events.read("lahar.pod-events", own, pod, e -> "decoded " + e.getPod()))
                .isEqualTo("tf-worker-0");
        assertThat(direct).hasValue(1);

        // Another writer schema: the fields laid out otherwise, so the record is decoded and resolved.
        Schema grown = new Schema.Parser()
                .parse(PodEvent.getClassSchema()
                        .toString()
                        .replaceFirst(
                                "\\{\"name\":\"pod\"",
                                "{\"name\":\"cluster\",\"type\":\"string\",\"default\":\"\"},{\"name\":\"pod\""));
        GenericRecord newer = new GenericData.Record(grown);
        for (Schema.Field f : PodEvent.getClassSchema().getFields()) newer.put(f.name(), event.get(f.pos()));
        newer.put("cluster", "east");
        newer.put("time", T0.toEpochMilli());
        byte[] other = registry.write(grown, newer);
        assertThat(events.read("lahar.pod-events", other, pod, e -> "decoded " + e.getPod()))
                .isEqualTo("decoded tf-worker-0");
        assertThat(direct).as("not read directly").hasValue(1);

        assertThat(events.read("lahar.pod-events", null, pod, e -> "decoded")).isNull();
        assertThatThrownBy(() -> events.read("lahar.pod-events", java.util.Arrays.copyOf(own, 9), pod, e -> "decoded"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("value: cannot decode a record of schema id")
                .hasMessageContaining("lahar.pod-events");
    }

    @Test
    void aRecordOfAnotherTypeIsRefusedNotResolvedByItsFieldNames() {
        // A Node on lahar.queues: Avro's Java resolution alone would read it as an open queue named after the node.
        Node node = Node.newBuilder()
                .setName("b")
                .setAllocatable(Map.of("cpu", "8"))
                .setTime(T0)
                .build();
        byte[] misrouted = registry.write(Node.getClassSchema(), node);
        CachingAvroDeserializer<io.lahar.schema.Queue> queues =
                new CachingAvroDeserializer<>(io.lahar.schema.Queue.class, registry.deserializer());
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> queues.deserialize("lahar.queues", misrouted))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(
                            "value: schema id " + registry.idOf(Node.getClassSchema())
                                    + " on lahar.queues is the schema of "
                                    + "io.lahar.schema.Node records, not of io.lahar.schema.Queue records: a record of another topic");
        }
        assertThat(registry.deserializations)
                .as("the verdict on the id is cached like a reader")
                .hasValue(1);
    }

    @Test
    void anIdTheRegistryDoesNotKnowSaysWhichAndWhatTheRegistryAnswered() {
        io.apicurio.registry.rest.client.models.ProblemDetails notFound =
                new io.apicurio.registry.rest.client.models.ProblemDetails();
        notFound.setStatus(404);
        notFound.setDetail("ContentNotFoundException: No content with ID '999999' was found.");
        CachingAvroDeserializer<JobStatusRecord> reader =
                new CachingAvroDeserializer<>(JobStatusRecord.class, (topic, bytes) -> {
                    throw new RuntimeException(notFound);
                });
        byte[] unknown = {0, 0, 0x0f, 0x42, 0x3f, 2, 98};
        assertThatThrownBy(() -> reader.deserialize(TOPIC, unknown))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "value: schema id 999999 on " + TOPIC + " is not in the schema registry, which answered 404 "
                                + "ContentNotFoundException: No content with ID '999999' was found.");
    }

    @Test
    void bytesWithoutTheRegistrysHeaderSaySo() {
        CachingAvroDeserializer<JobStatusRecord> reader =
                new CachingAvroDeserializer<>(JobStatusRecord.class, (topic, bytes) -> {
                    throw new IllegalStateException("Unknown magic byte!");
                });
        assertThatThrownBy(
                        () -> reader.deserialize(TOPIC, "not avro".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("value: not a registry-encoded record on " + TOPIC + " (8 bytes;")
                .hasRootCauseMessage("Unknown magic byte!");
    }

    @Test
    void aTombstoneIsNullBothWays() {
        assertThat(serializer.serialize(TOPIC, null)).isNull();
        assertThat(deserializer.deserialize(TOPIC, null)).isNull();
        assertThat(registry.serializations).hasValue(0);
        assertThat(registry.deserializations).hasValue(0);
    }

    @Test
    void bytesThatAreNotTheRecordSayWhichSchemaIdAndTopic() {
        byte[] bytes = serializer.serialize(TOPIC, status("a", 1));
        deserializer.deserialize(TOPIC, bytes);
        byte[] cut = java.util.Arrays.copyOf(bytes, 12);
        assertThatThrownBy(() -> deserializer.deserialize(TOPIC, cut))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schema id " + registry.idOf(JobStatusRecord.getClassSchema()))
                .hasMessageContaining(TOPIC);
    }

    @Test
    void oneSerdeSharedByThreadsGivesEveryThreadItsOwnRecords() throws Exception {
        // Fresh serdes: the first record of the topic and of the id is met by all threads at once.
        CachingAvroSerializer<PodEvent> ser = new CachingAvroSerializer<>(PodEvent.class, registry.serializer());
        CachingAvroDeserializer<PodEvent> de = new CachingAvroDeserializer<>(PodEvent.class, registry.deserializer());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Boolean>> work = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                work.add(() -> {
                    for (int i = 0; i < 2_000; i++) {
                        PodEvent event = podEvent("j" + thread, "p-" + i, i % 2 == 0 ? "Running" : "Succeeded");
                        if (!de.deserialize("lahar.pod-events", ser.serialize("lahar.pod-events", event))
                                .equals(event)) return false;
                    }
                    return true;
                });
            }
            for (Future<Boolean> f : pool.invokeAll(work)) assertThat(f.get()).isTrue();
        } finally {
            pool.shutdownNow();
        }
        assertThat(de.cachedReaders()).isEqualTo(1);
    }

    static PodEvent podEvent(String job, String pod, String phase) {
        return PodEvent.newBuilder()
                .setNamespace("ns")
                .setJob(job)
                .setPod(pod)
                .setTask("worker")
                .setIndex(0)
                .setJobVersion(0)
                .setPhase(phase)
                .setNode("n1")
                .setTime(T0)
                .build();
    }

    private static Schema withExtraField(Schema schema) {
        String json = schema.toString();
        int end = json.lastIndexOf("]");
        return new Schema.Parser()
                .parse(json.substring(0, end) + ",{\"name\":\"priority\",\"type\":\"int\",\"default\":0}"
                        + json.substring(end));
    }

    /** A released topic schema, parsed after the shared types it uses (as the build parses them). */
    private static Schema releasedSchema(String version, String file) throws IOException {
        Path dir = Path.of("released", version);
        Schema.Parser parser = new Schema.Parser();
        try (Stream<Path> common = Files.list(dir.resolve("common"))) {
            for (Path p : common.sorted().toList()) parser.parse(p.toFile());
        }
        return parser.parse(dir.resolve(file).toFile());
    }
}
