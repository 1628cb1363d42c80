package io.lahar.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** Generated classes survive Avro binary encoding, and read data written with the released schema. */
class RoundTripTest {

    private static final Instant T0 = Instant.parse("2026-01-02T03:04:05.678Z");

    /** A Volcano pod template with fields the engine never looks at; it must come back byte for byte. */
    private static final String POD_TEMPLATE = """
      {"metadata":{"labels":{"app":"mpi"},"annotations":{"x/y":"z"}},"spec":{"containers":[{"name":"mpimaster",\
      "image":"mpi-image","command":["sh","-c","mpirun --host ${MPI_HOST} ./pi"],"resources":{"requests":\
      {"cpu":"500m","memory":"1Gi"}},"securityContext":{"capabilities":{"add":["SYS_PTRACE"]}}}],\
      "restartPolicy":"OnFailure","dnsConfig":{"options":[{"name":"ndots","value":"2"}]},"unknownFutureField":[1,2.5,"ü"]}}""";

    @Test
    void aUserCommandRoundTrips() throws IOException {
        JobCommand command = JobCommand.newBuilder()
                .setRequestId("req-1")
                .setSender("cli")
                .setNamespace("default")
                .setName("mpi-job")
                .setTime(T0)
                .setCommand(JobActionCommand.newBuilder()
                        .setAction(JobAction.RestartTask)
                        .setTask("mpiworker")
                        .setMessage("worker 1 wedged")
                        .build())
                .build();

        JobCommand back = roundTrip(command, JobCommand.class);

        assertThat(back).isEqualTo(command);
        assertThat(back.getCommand()).isInstanceOfSatisfying(JobActionCommand.class, a -> {
            assertThat(a.getAction()).isEqualTo(JobAction.RestartTask);
            assertThat(a.getPod()).isNull();
        });
        assertThat(back.getTime()).isEqualTo(T0);
    }

    @Test
    void aPodIntentKeepsThePodTemplateIntact() throws IOException {
        PodIntent intent = PodIntent.newBuilder()
                .setNamespace("default")
                .setJob("mpi-job")
                .setTime(T0)
                .setIntent(CreatePod.newBuilder()
                        .setPod("mpi-job-mpimaster-0")
                        .setTask("mpimaster")
                        .setIndex(0)
                        .setJobVersion(2)
                        .setPodGroup("mpi-job")
                        .setSchedulerName("volcano")
                        .setTemplate(POD_TEMPLATE)
                        .setLabels(Map.of("volcano.sh/job-name", "mpi-job"))
                        .setAnnotations(Map.of("volcano.sh/job-version", "2"))
                        .setRequests(Map.of("cpu", "500m", "memory", "1Gi"))
                        .setNodeSelector(Map.of("zone", "a"))
                        .setTolerations(List.of(Toleration.newBuilder()
                                .setKey("gpu")
                                .setOperator("Exists")
                                .setEffect("NoSchedule")
                                .build()))
                        .build())
                .build();

        PodIntent back = roundTrip(intent, PodIntent.class);

        assertThat(back).isEqualTo(intent);
        assertThat(((CreatePod) back.getIntent()).getTemplate()).isEqualTo(POD_TEMPLATE);
    }

    @Test
    void aJobStatusWithNestedMapsRoundTrips() throws IOException {
        JobStatusRecord status = JobStatusRecord.newBuilder()
                .setNamespace("default")
                .setName("tf-job")
                .setUid("u-1")
                .setQueue("default")
                .setManifest("{}")
                .setTime(T0)
                .setStatus(JobStatus.newBuilder()
                        .setState(JobState.newBuilder()
                                .setPhase("Restarting")
                                .setReason("PodFailed")
                                .setLastTransitionTime(T0)
                                .build())
                        .setMinAvailable(6)
                        .setTaskStatusCount(Map.of(
                                "ps",
                                new TaskState(Map.of("Running", 1)),
                                "worker",
                                new TaskState(Map.of("Running", 4, "Failed", 1))))
                        .setRunning(5)
                        .setFailed(1)
                        .setVersion(1)
                        .setRetryCount(1)
                        .setControlledResources(Map.of("plugin-svc", "svc"))
                        .setConditions(List.of(
                                new JobCondition("Running", T0.minusSeconds(60)), new JobCondition("Restarting", T0)))
                        .build())
                .build();

        JobStatusRecord back = roundTrip(status, JobStatusRecord.class);

        assertThat(back).isEqualTo(status);
        assertThat(back.getStatus().getTaskStatusCount().get("worker").getPhase())
                .containsEntry("Failed", 1);
        assertThat(back.getStatus().getRunningDuration()).isNull();
    }

    @Test
    void aPodGroupStatusDecisionRoundTrips() throws IOException {
        SchedulerDecision decision = SchedulerDecision.newBuilder()
                .setNamespace("default")
                .setJob("tf-job")
                .setPodGroup("tf-job")
                .setEpoch(3)
                .setTime(T0)
                .setDecision(PodGroupStatus.newBuilder()
                        .setPhase("Pending")
                        .setConditions(List.of(PodGroupCondition.newBuilder()
                                .setType("Unschedulable")
                                .setStatus("True")
                                .setReason("NotEnoughResources")
                                .setMessage("0/2 nodes are available: 2 Insufficient cpu")
                                .setTransitionID("s-17")
                                .setLastTransitionTime(T0)
                                .build()))
                        .build())
                .build();

        assertThat(roundTrip(decision, SchedulerDecision.class)).isEqualTo(decision);
    }

    @Test
    void aFlowStatusWithHistoriesRoundTrips() throws IOException {
        JobFlowStatusRecord flow = JobFlowStatusRecord.newBuilder()
                .setNamespace("default")
                .setName("test")
                .setManifest("{}")
                .setTime(T0)
                .setStatus(JobFlowStatus.newBuilder()
                        .setCompletedJobs(List.of("test-a"))
                        .setRunningJobs(List.of("test-b"))
                        .setJobStatusList(List.of(
                                FlowJobStatus.newBuilder()
                                        .setName("test-a")
                                        .setState("Completed")
                                        .setStartTimestamp(T0.minusSeconds(30))
                                        .setEndTimestamp(T0.minusSeconds(10))
                                        .setRunningHistories(List.of(new JobRunningHistory(
                                                T0.minusSeconds(30), T0.minusSeconds(10), "Running")))
                                        .build(),
                                FlowJobStatus.newBuilder()
                                        .setName("test-c")
                                        .setState("Waiting")
                                        .build()))
                        .setConditions(Map.of(
                                "test-a",
                                FlowCondition.newBuilder()
                                        .setPhase("Completed")
                                        .setCreateTime(T0)
                                        .setTaskStatusCount(
                                                Map.of("default-nginx", new TaskState(Map.of("Succeeded", 1))))
                                        .build()))
                        .setState(new JobFlowState("Running"))
                        .build())
                .build();

        JobFlowStatusRecord back = roundTrip(flow, JobFlowStatusRecord.class);

        assertThat(back).isEqualTo(flow);
        assertThat(back.getStatus().getJobStatusList().get(1).getStartTimestamp())
                .isEqualTo(Instant.EPOCH);
    }

    @Test
    void serdesThatWorkFromTheSchemaAloneHandleNullableTimestamps() throws IOException {
        // Registry serdes build their writers and readers from a Schema, not a Class: the generated
        // model (with its timestamp conversions) must still be found for a nullable Instant.
        JobStatusRecord status = JobStatusRecord.newBuilder()
                .setNamespace("default")
                .setName("tf-job")
                .setUid("u-1")
                .setQueue("default")
                .setManifest("{}")
                .setTime(T0)
                .setStatus(JobStatus.newBuilder()
                        .setMinAvailable(1)
                        .setState(JobState.newBuilder()
                                .setPhase("Running")
                                .setLastTransitionTime(T0)
                                .build())
                        .build())
                .build();
        Schema schema = JobStatusRecord.getClassSchema();

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<JobStatusRecord>(schema).write(status, encoder);
        encoder.flush();
        JobStatusRecord back = new SpecificDatumReader<JobStatusRecord>(schema, schema)
                .read(null, DecoderFactory.get().binaryDecoder(out.toByteArray(), null));

        assertThat(back).isEqualTo(status);
        assertThat(back.getStatus().getState().getLastTransitionTime()).isEqualTo(T0);
    }

    @Test
    void singleObjectEncodingOfTheGeneratedClassesWorks() throws IOException {
        Tick tick = new Tick(T0);

        assertThat(Tick.fromByteBuffer(tick.toByteBuffer())).isEqualTo(tick);
    }

    @Test
    void dataWrittenWithTheReleasedSchemaIsReadByTheGeneratedClass() throws IOException {
        Schema released = AvscFiles.byFullName(AvscFiles.latestReleased())
                .get(PodEvent.getClassSchema().getFullName());
        GenericRecord old = new GenericData.Record(released);
        old.put("namespace", "default");
        old.put("job", "tf-job");
        old.put("pod", "tf-job-worker-3");
        old.put("uid", null);
        old.put("jobUid", null);
        old.put("task", "worker");
        old.put("index", 3);
        old.put("jobVersion", 0);
        old.put("phase", "Failed");
        Schema containerSchema = released.getField("containers").schema().getElementType();
        GenericRecord container = new GenericData.Record(containerSchema);
        container.put("name", "worker");
        container.put("exitCode", 137);
        container.put("reason", "OOMKilled");
        container.put("restartCount", 0);
        old.put("containers", List.of(container));
        old.put("node", "n1");
        old.put("deletedByOthers", false);
        old.put("deleted", false);
        old.put("reason", null);
        old.put("message", null);
        old.put("time", T0.toEpochMilli());

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(released).write(old, encoder);
        encoder.flush();
        PodEvent read = new SpecificDatumReader<PodEvent>(released, PodEvent.getClassSchema())
                .read(null, DecoderFactory.get().binaryDecoder(out.toByteArray(), null));

        assertThat(read.getPod()).isEqualTo("tf-job-worker-3");
        assertThat(read.getContainers()).singleElement().satisfies(c -> {
            assertThat(c.getExitCode()).isEqualTo(137);
            assertThat(c.getReason()).isEqualTo("OOMKilled");
        });
        assertThat(read.getTime()).isEqualTo(T0);
    }

    private static <T extends SpecificRecord> T roundTrip(T record, Class<T> type) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        // By class, not by schema: the class's model carries the timestamp conversions that nullable
        // timestamps (unions) need; SpecificDatumWriter(schema) would fail on a nested Instant.
        new SpecificDatumWriter<>(type).write(record, encoder);
        encoder.flush();
        return new SpecificDatumReader<>(type).read(null, DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
    }
}
