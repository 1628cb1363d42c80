package io.lahar.schema.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Action;
import io.lahar.core.api.Job;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.api.Queue;
import io.lahar.core.command.JobCommands;
import io.lahar.core.command.JobRequest;
import io.lahar.core.job.Input;
import io.lahar.core.job.JobController;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.Outcome;
import io.lahar.core.job.PodPhase;
import io.lahar.core.job.Transition;
import io.lahar.core.job.WorldAction;
import io.lahar.core.job.plugins.RayPlugin;
import io.lahar.schema.Bind;
import io.lahar.schema.ContainerStatus;
import io.lahar.schema.CreatePod;
import io.lahar.schema.DeleteObject;
import io.lahar.schema.DeletePod;
import io.lahar.schema.EnsureConfigMap;
import io.lahar.schema.EnsureNetworkPolicy;
import io.lahar.schema.EnsurePersistentVolumeClaim;
import io.lahar.schema.EnsureService;
import io.lahar.schema.JobAction;
import io.lahar.schema.JobActionCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.JobTransition;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupCondition;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.PodIntent;
import io.lahar.schema.SchedulerDecision;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CodecTest {

    private static final String JOB = """
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata:
              name: tf
              namespace: ns
            spec:
              plugins:
                svc: []
              policies:
              - event: PodFailed
                action: RestartJob
              tasks:
              - name: ps
                replicas: 1
                template:
                  spec:
                    containers:
                    - name: ps
                      image: ps-img
                      resources:
                        requests: {cpu: 500m, memory: 1Gi}
              - name: worker
                replicas: 2
                template:
                  spec:
                    nodeSelector: {zone: a}
                    tolerations:
                    - {key: gpu, operator: Exists, effect: NoSchedule}
                    containers:
                    - name: worker
                      image: worker-img
                      resources:
                        limits: {cpu: "2"}
            """;

    private final JobController controller = new JobController();

    private static Job admitted() {
        AdmissionContext ctx = AdmissionContext.of(List.of(
                AdmissionContext.openQueue(Queue.ROOT, null), AdmissionContext.openQueue(Queue.DEFAULT, Queue.ROOT)));
        JobCommands.Decision d = JobCommands.decide(
                null, new JobRequest("r1", "test", "ns", "tf", 1_000, new JobRequest.Submit(JOB)), ctx);
        assertThat(d.verdict().accepted()).as("%s", d.verdict().violations()).isTrue();
        return d.next().job();
    }

    /** Submitted and admitted by the scheduler: the pods are asked for. */
    private Outcome[] started() {
        Outcome submitted = controller.apply(JobInfo.empty(), new Input.Submit(admitted(), 1_000));
        Outcome inqueue = controller.apply(submitted.state(), new Input.PodGroupObserved(PodGroupPhase.Inqueue, 2_000));
        return new Outcome[] {submitted, inqueue};
    }

    @Test
    void statusRecordCarriesPhaseCountsAndTheAdmittedManifest() {
        Outcome submitted = started()[0];
        JobStatusRecord record = JobStatusCodec.toRecord(submitted.state().job(), 1_000);
        assertThat(record.getNamespace()).isEqualTo("ns");
        assertThat(record.getName()).isEqualTo("tf");
        assertThat(record.getUid()).isNotBlank();
        assertThat(record.getQueue()).isEqualTo("default");
        assertThat(record.getStatus().getState().getPhase()).isEqualTo("Pending");
        assertThat(record.getStatus().getMinAvailable()).isEqualTo(3);
        assertThat(record.getManifest()).contains("worker-img").doesNotContain("\"status\"");
        assertThat(record.getTime()).isEqualTo(Instant.ofEpochMilli(1_000));
    }

    @Test
    void aStatusWrittenStraightFromTheJobIsTheRecordsBinary() throws Exception {
        // Every field set and unset, maps in any order, strings beyond ASCII: write() must follow the
        // schema's layout and the record's key order.
        Job job = admitted();
        java.util.Map<String, io.lahar.core.api.JobStatus.TaskState> tasks = new java.util.LinkedHashMap<>();
        java.util.Map<String, Integer> workerPhases = new java.util.LinkedHashMap<>();
        workerPhases.put("Succeeded", 3);
        workerPhases.put("Failed", 1);
        workerPhases.put("Running", 0);
        tasks.put("worker", new io.lahar.core.api.JobStatus.TaskState(workerPhases));
        tasks.put("ps", new io.lahar.core.api.JobStatus.TaskState(java.util.Map.of("Running", 1)));
        tasks.put("empty", new io.lahar.core.api.JobStatus.TaskState(null));
        tasks.put("absent", null);
        java.util.Map<String, String> resources = new java.util.LinkedHashMap<>();
        resources.put("volume-pvc-b", "pvc-b");
        resources.put("plugin-svc", "svc \u00e9");
        io.lahar.core.api.JobStatus full = new io.lahar.core.api.JobStatus(
                new io.lahar.core.api.JobState(
                        io.lahar.core.api.JobPhase.Running,
                        "PodFailed",
                        "pod tf-worker-2 exited 137 -> RestartJob \u2192 retry 2/3",
                        "2026-12-02T10:00:01.250Z"),
                3,
                tasks,
                1,
                2,
                3,
                4,
                5,
                6,
                7,
                8,
                "1h2m3.125s",
                resources,
                List.of(
                        new io.lahar.core.api.JobStatus.JobCondition(
                                io.lahar.core.api.JobPhase.Pending, "2026-12-02T09:59:00Z"),
                        new io.lahar.core.api.JobStatus.JobCondition(
                                io.lahar.core.api.JobPhase.Running, "2026-12-02T10:00:01.250Z")));
        io.lahar.core.api.JobStatus bare = new io.lahar.core.api.JobStatus(
                new io.lahar.core.api.JobState(io.lahar.core.api.JobPhase.Pending, null, null, null),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        io.lahar.core.api.JobStatus odd = new io.lahar.core.api.JobStatus(
                new io.lahar.core.api.JobState(io.lahar.core.api.JobPhase.Failed, "", "", "2026-12-02T10:00:00+01:00"),
                0,
                java.util.Map.of(),
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                "not a duration",
                java.util.Map.of(),
                List.of());
        List<Job> jobs = new ArrayList<>();
        for (io.lahar.core.api.JobStatus status : List.of(full, bare, odd)) {
            jobs.add(job.withStatus(status));
            jobs.add(job.withStatus(status)
                    .withMetadata(io.lahar.core.api.ObjectMeta.named("n\u00e9s", "j"))
                    .withSpec(job.spec().withQueue(null)));
            jobs.add(job.withStatus(status)
                    .withMetadata(null == job.metadata() ? null : job.metadata().withName("other"))
                    .withSpec(job.spec().withQueue("team-\u00e9")));
        }
        for (Job j : jobs) {
            for (String manifest :
                    List.of(io.lahar.core.api.Manifests.toJson(j.withStatus(null)), "", "{\"m\":\"\u00e9\u4e2d\"}")) {
                java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
                org.apache.avro.specific.SpecificData data = new org.apache.avro.specific.SpecificData();
                data.addLogicalTypeConversion(new org.apache.avro.data.TimeConversions.TimestampMillisConversion());
                org.apache.avro.io.BinaryEncoder encoder =
                        org.apache.avro.io.EncoderFactory.get().binaryEncoder(expected, null);
                new org.apache.avro.specific.SpecificDatumWriter<JobStatusRecord>(
                                JobStatusRecord.getClassSchema(), data)
                        .write(JobStatusCodec.toRecord(j, manifest, 42_000), encoder);
                encoder.flush();

                java.io.ByteArrayOutputStream written = new java.io.ByteArrayOutputStream();
                org.apache.avro.io.BinaryEncoder direct =
                        org.apache.avro.io.EncoderFactory.get().binaryEncoder(written, null);
                JobStatusCodec.write(j, new org.apache.avro.util.Utf8(manifest), 42_000, direct);
                direct.flush();
                assertThat(written.toByteArray()).as("%s", j.status()).isEqualTo(expected.toByteArray());
            }
        }
        assertThatThrownBy(() -> JobStatusCodec.write(
                        job.withStatus(null),
                        new org.apache.avro.util.Utf8("{}"),
                        1,
                        org.apache.avro.io.EncoderFactory.get()
                                .binaryEncoder(new java.io.ByteArrayOutputStream(), null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("status.state.phase: ");
    }

    @Test
    void createPodIntentsCarryTheWholePodAndWhatTheSchedulerNeeds() {
        Outcome inqueue = started()[1];
        Job job = inqueue.state().job();
        List<CreatePod> creates = new ArrayList<>();
        for (WorldAction a : inqueue.actions()) {
            if (PodIntentCodec.map(
                                    new PodIntentCodec.Context(
                                            "ns", "tf", job.metadata().uid(), 0, 2_000),
                                    a)
                            instanceof PodIntentCodec.Intent(PodIntent intent)
                    && intent.getIntent() instanceof CreatePod c) {
                assertThat(intent.getJobUid()).isEqualTo(job.metadata().uid());
                creates.add(c);
            }
        }
        assertThat(creates).extracting(CreatePod::getPod).containsExactly("tf-ps-0", "tf-worker-0", "tf-worker-1");
        CreatePod ps = creates.get(0);
        assertThat(ps.getRequests()).containsEntry("cpu", "0.5").containsEntry("memory", "1073741824");
        assertThat(ps.getPodGroup()).isEqualTo("tf-" + job.metadata().uid());
        assertThat(ps.getLabels())
                .containsEntry("volcano.sh/job-name", "tf")
                .containsEntry("volcano.sh/task-spec", "ps");
        assertThat(ps.getTemplate()).contains("\"metadata\"").contains("ps-img").doesNotContain("\"kind\":\"Pod\"");
        CreatePod worker = creates.get(1);
        assertThat(worker.getRequests()).containsEntry("cpu", "2");
        assertThat(worker.getNodeSelector()).containsEntry("zone", "a");
        assertThat(worker.getTolerations()).singleElement().satisfies(t -> {
            assertThat(t.getKey()).isEqualTo("gpu");
            assertThat(t.getOperator()).isEqualTo("Exists");
            assertThat(t.getEffect()).isEqualTo("NoSchedule");
        });
    }

    @Test
    void theRayHeadServiceTravelsWithItsClusterIpAndPorts() {
        Job job = Manifests.read("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: rc}
                spec:
                  tasks:
                  - {name: head, replicas: 1, template: {spec: {containers: [{name: head, image: i}]}}}
                """, Job.class);
        WorldAction create = new RayPlugin(List.of("--port=6380")).onJobAdd(job).get(0);
        assertThat(PodIntentCodec.map(new PodIntentCodec.Context("ns", "rc", "u", 0, 5), create))
                .isInstanceOfSatisfying(PodIntentCodec.Intent.class, i -> {
                    EnsureService s = (EnsureService) i.intent().getIntent();
                    assertThat(s.getName()).isEqualTo("rc-head-svc");
                    assertThat(s.getHeadless()).isFalse();
                    assertThat(s.getSelector()).containsEntry("volcano.sh/task-spec", "head");
                    assertThat(s.getPorts())
                            .extracting(p -> p.getName() + ":" + p.getPort())
                            .containsExactly("gcs:6380", "dashboard:8265", "client-server:10001");
                });
    }

    @Test
    void everyWorldActionHasAWayToTravel() {
        Outcome submitted = started()[0];
        PodIntentCodec.Context ctx = new PodIntentCodec.Context("ns", "tf", "u", 3, 5);
        List<Object> bodies = new ArrayList<>();
        for (WorldAction a : submitted.actions()) {
            if (PodIntentCodec.map(ctx, a) instanceof PodIntentCodec.Intent(PodIntent intent)) {
                bodies.add(intent.getIntent());
            }
        }
        assertThat(bodies)
                .anySatisfy(b -> assertThat(b).isInstanceOfSatisfying(EnsureService.class, s -> {
                    assertThat(s.getName()).isEqualTo("tf");
                    assertThat(s.getHeadless()).isTrue();
                }));
        assertThat(bodies).anySatisfy(b -> assertThat(b).isInstanceOf(EnsureConfigMap.class));
        assertThat(PodIntentCodec.map(ctx, new WorldAction.DeletePod("tf-ps-0", "RestartJob")))
                .isInstanceOfSatisfying(PodIntentCodec.Intent.class, i -> {
                    DeletePod d = (DeletePod) i.intent().getIntent();
                    assertThat(d.getJobVersion()).isEqualTo(3);
                    assertThat(d.getReason()).isEqualTo("RestartJob");
                });
        assertThat(PodIntentCodec.map(ctx, new WorldAction.DeletePodGroup("g")))
                .isInstanceOf(PodIntentCodec.Elsewhere.class);
        assertThat(submitted.actions())
                .as("every object the engine asks for has a branch")
                .noneMatch(a -> PodIntentCodec.map(ctx, a) instanceof PodIntentCodec.NotInContract);
        assertThat(bodies)
                .anySatisfy(b -> assertThat(b).isInstanceOfSatisfying(EnsureNetworkPolicy.class, p -> {
                    assertThat(p.getName()).isEqualTo("tf");
                    assertThat(p.getPodSelector())
                            .containsEntry("volcano.sh/job-name", "tf")
                            .containsEntry("volcano.sh/job-namespace", "ns");
                    assertThat(p.getIngressFrom()).containsExactly(p.getPodSelector());
                    assertThat(p.getPolicyTypes()).containsExactly("Ingress");
                }));
        ObjectNode claimSpec = Manifests.jsonMapper().createObjectNode();
        claimSpec.putArray("accessModes").add("ReadWriteOnce");
        assertThat(PodIntentCodec.map(ctx, new WorldAction.CreatePersistentVolumeClaim("tf-volume-0", claimSpec)))
                .isInstanceOfSatisfying(PodIntentCodec.Intent.class, i -> {
                    EnsurePersistentVolumeClaim c =
                            (EnsurePersistentVolumeClaim) i.intent().getIntent();
                    assertThat(c.getName()).isEqualTo("tf-volume-0");
                    assertThat(c.getSpec()).isEqualTo("{\"accessModes\":[\"ReadWriteOnce\"]}");
                    assertThat(c.getLabels()).containsEntry("volcano.sh/job-name", "tf");
                });
        assertThat(PodIntentCodec.map(ctx, new WorldAction.DeleteObject("PersistentVolumeClaim", "tf-volume-0")))
                .isInstanceOfSatisfying(
                        PodIntentCodec.Intent.class,
                        i -> assertThat(((DeleteObject) i.intent().getIntent()).getReason())
                                .isEqualTo("JobDeleted"));
    }

    @Test
    void aNetworkPolicyTheBranchCannotCarryWholeIsReportedNotSentWithAPartMissing() throws Exception {
        PodIntentCodec.Context ctx = new PodIntentCodec.Context("ns", "tf", "u", 0, 5);
        ObjectNode policy = (ObjectNode) Manifests.jsonMapper().readTree("""
                {"spec": {"podSelector": {"matchLabels": {"a": "b"}},
                          "ingress": [{"from": [{"namespaceSelector": {}}], "ports": []}, {}],
                          "egress": []}}""");

        assertThat(PodIntentCodec.map(ctx, new WorldAction.CreateObject("NetworkPolicy", "tf", policy)))
                .isInstanceOfSatisfying(
                        PodIntentCodec.NotInContract.class,
                        n -> assertThat(n.why())
                                .contains(
                                        "spec.egress",
                                        "spec.ingress[0].ports",
                                        "spec.ingress[0].from[0].namespaceSelector",
                                        "spec.ingress[1] without from"));
    }

    @Test
    void podGroupRecordHasTheSpecAndTheLastSeenPhase() {
        Outcome submitted = started()[0];
        WorldAction.UpsertPodGroup upsert = submitted.actions().stream()
                .filter(WorldAction.UpsertPodGroup.class::isInstance)
                .map(WorldAction.UpsertPodGroup.class::cast)
                .findFirst()
                .orElseThrow();
        PodGroup record = PodGroupCodec.toRecord(
                new PodGroupCodec.Context("ns", "tf", "u", 0, 1_000, 2_000),
                upsert.podGroup().metadata().name(),
                Map.of("sla-waiting-time", "90s"),
                Map.of("volcano.sh/preemptable", "true"),
                upsert.podGroup().spec(),
                PodGroupPhase.Inqueue,
                List.of(),
                1,
                0,
                0);
        assertThat(record.getSpec().getMinMember()).isEqualTo(3);
        assertThat(record.getSpec().getMinTaskMember()).containsEntry("ps", 1).containsEntry("worker", 2);
        assertThat(record.getSpec().getMinResources()).containsKey("cpu");
        assertThat(record.getStatus().getPhase()).isEqualTo("Inqueue");
        assertThat(record.getStatus().getRunning()).isEqualTo(1);
        assertThat(record.getCreationTimestamp()).isEqualTo(Instant.ofEpochMilli(1_000));
        assertThat(record.getAnnotations()).containsEntry("sla-waiting-time", "90s");
        assertThat(record.getLabels()).containsEntry("volcano.sh/preemptable", "true");
    }

    @Test
    void podEventsBecomeObservations() {
        PodEvent failed = event("Failed")
                .setContainers(List.of(
                        ContainerStatus.newBuilder()
                                .setName("a")
                                .setExitCode(null)
                                .setRestartCount(1)
                                .build(),
                        ContainerStatus.newBuilder()
                                .setName("b")
                                .setExitCode(137)
                                .setRestartCount(4)
                                .build()))
                .build();
        Input.PodObserved in = PodEventCodec.toInput(failed);
        assertThat(in.phase()).isEqualTo(PodPhase.Failed);
        assertThat(in.exitCode()).isEqualTo(137);
        assertThat(in.restartCount()).isEqualTo(4);
        assertThat(in.deleted()).isFalse();
        assertThat(in.version()).isEqualTo(2);
        assertThat(in.time()).isEqualTo(7_000);

        assertThat(PodEventCodec.toInput(
                                event("Running").setDeletedByOthers(true).build())
                        .deleted())
                .isTrue();
        assertThat(PodEventCodec.toInput(event("Hibernating").build()).phase()).isEqualTo(PodPhase.Unknown);
        assertThatThrownBy(
                        () -> PodEventCodec.toInput(event("Running").setTask("").build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("task: ");
    }

    @Test
    void aPodEventReadStraightFromItsBytesGivesWhatItsDecodedRecordGives() throws Exception {
        // Every field set and unset, containers none to several: read() must follow the schema's layout.
        List<PodEvent> events = new ArrayList<>();
        events.add(event("Running").build());
        events.add(event("Failed")
                .setUid("pod-uid")
                .setJobUid("job-uid")
                .setNode("n1")
                .setDeletedByOthers(true)
                .setDeleted(true)
                .setReason("Evicted")
                .setMessage("the node was low on memory \u00e9")
                .setContainers(List.of(
                        ContainerStatus.newBuilder()
                                .setName("init")
                                .setExitCode(null)
                                .setReason("Completed")
                                .setRestartCount(2)
                                .build(),
                        ContainerStatus.newBuilder()
                                .setName("main")
                                .setExitCode(137)
                                .setReason("OOMKilled")
                                .setRestartCount(5)
                                .build(),
                        ContainerStatus.newBuilder()
                                .setName("side")
                                .setExitCode(1)
                                .setReason(null)
                                .setRestartCount(0)
                                .build()))
                .build());
        events.add(event("Succeeded")
                .setJobUid("")
                .setIndex(0)
                .setJobVersion(0)
                .setTime(Instant.ofEpochMilli(Long.MAX_VALUE / 2))
                .setScheduledTime(Instant.ofEpochMilli(1_796_378_400_000L))
                .setContainers(List.of(ContainerStatus.newBuilder()
                        .setName("")
                        .setExitCode(0)
                        .setRestartCount(0)
                        .build()))
                .build());
        events.add(event("Hibernating")
                .setPod("")
                .setTask("")
                .setIndex(-3)
                .setDeleted(true)
                .build());
        for (PodEvent event : events) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            org.apache.avro.specific.SpecificData data = new org.apache.avro.specific.SpecificData();
            data.addLogicalTypeConversion(new org.apache.avro.data.TimeConversions.TimestampMillisConversion());
            org.apache.avro.io.BinaryEncoder encoder =
                    org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
            new org.apache.avro.specific.SpecificDatumWriter<PodEvent>(PodEvent.getClassSchema(), data)
                    .write(event, encoder);
            encoder.flush();
            org.apache.avro.io.BinaryDecoder in =
                    org.apache.avro.io.DecoderFactory.get().binaryDecoder(out.toByteArray(), null);

            assertThat(PodEventCodec.read(in)).isEqualTo(PodEventCodec.fields(event));
            assertThat(in.isEnd()).as("every byte of the record read").isTrue();
        }
    }

    @Test
    void bytesThatAreNotAPodEventFailToRead() {
        // A union branch past the two there are.
        byte[] bytes = {2, 'n', 2, 'j', 2, 'p', 6};
        assertThatThrownBy(() -> PodEventCodec.read(
                        org.apache.avro.io.DecoderFactory.get().binaryDecoder(bytes, null)))
                .isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("union branch 3");
        assertThatThrownBy(() -> PodEventCodec.read(
                        org.apache.avro.io.DecoderFactory.get().binaryDecoder(new byte[] {2, 'n'}, null)))
                .isInstanceOf(java.io.EOFException.class);
    }

    private static PodEvent.Builder event(String phase) {
        return PodEvent.newBuilder()
                .setNamespace("ns")
                .setJob("tf")
                .setPod("tf-worker-1")
                .setTask("worker")
                .setIndex(1)
                .setJobVersion(2)
                .setPhase(phase)
                .setTime(Instant.ofEpochMilli(7_000));
    }

    @Test
    void onlyPodGroupStatusDecisionsReachTheEngine() {
        SchedulerDecision.Builder d = SchedulerDecision.newBuilder()
                .setNamespace("ns")
                .setJob("tf")
                .setPodGroup("g")
                .setEpoch(1)
                .setTime(Instant.ofEpochMilli(9_000));
        assertThat(SchedulerDecisionCodec.toInput(
                        d.setDecision(new Bind("tf-ps-0", "n1", "allocate", 0)).build()))
                .isEmpty();
        assertThat(SchedulerDecisionCodec.toInput(d.setDecision(
                                PodGroupStatus.newBuilder().setPhase("Inqueue").build())
                        .build()))
                .hasValue(new Input.PodGroupObserved(PodGroupPhase.Inqueue, 9_000));
        PodGroupCondition unschedulable = PodGroupCondition.newBuilder()
                .setType("Unschedulable")
                .setStatus("True")
                .setTransitionID("s-7")
                .setLastTransitionTime(Instant.ofEpochMilli(9_000))
                .setReason("NotEnoughResources")
                .setMessage("2/2 tasks in gang unschedulable: 2 Insufficient cpu")
                .build();
        assertThat(SchedulerDecisionCodec.toInput(d.setDecision(PodGroupStatus.newBuilder()
                                .setPhase("Pending")
                                .setConditions(java.util.List.of(unschedulable))
                                .build())
                        .build()))
                .hasValue(new Input.PodGroupObserved(
                        PodGroupPhase.Pending,
                        9_000,
                        "NotEnoughResources",
                        "2/2 tasks in gang unschedulable: 2 Insufficient cpu"));
        assertThatThrownBy(() -> SchedulerDecisionCodec.toInput(d.setDecision(
                                PodGroupStatus.newBuilder().setPhase("Dreaming").build())
                        .build()))
                .hasMessageStartingWith("decision.phase: ");
    }

    @Test
    void aTransitionWrittenStraightIsItsRecordsBinary() throws Exception {
        List<Transition> transitions = List.of(
                new Transition(
                        io.lahar.core.api.JobPhase.Running,
                        io.lahar.core.api.JobPhase.Restarting,
                        "PodFailed",
                        "RestartJob",
                        "spec.policies[0]",
                        "PodFailed",
                        "pod tf-worker-0 exited 1 \u2192 retry 1/3",
                        11_000),
                new Transition(null, io.lahar.core.api.JobPhase.Pending, null, null, null, null, null, 0),
                new Transition(
                        io.lahar.core.api.JobPhase.Pending,
                        io.lahar.core.api.JobPhase.Running,
                        "",
                        "",
                        "",
                        "",
                        "",
                        Long.MAX_VALUE / 4));
        JobInfo after = started()[1].state();
        for (JobTransitionCodec.Source source : List.of(
                new JobTransitionCodec.Source("lahar.pod-events", 3, 42),
                new JobTransitionCodec.Source("t\u00e9", 0, Long.MAX_VALUE))) {
            List<JobTransition> records = JobTransitionCodec.toRecords(after, transitions, source);
            List<JobTransitionCodec.Value> values = JobTransitionCodec.toValues(after, transitions, source);
            assertThat(values).hasSameSizeAs(records);
            for (int i = 0; i < values.size(); i++) {
                assertThat(values.get(i).record()).isEqualTo(records.get(i));
                java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
                org.apache.avro.specific.SpecificData data = new org.apache.avro.specific.SpecificData();
                data.addLogicalTypeConversion(new org.apache.avro.data.TimeConversions.TimestampMillisConversion());
                org.apache.avro.io.BinaryEncoder encoder =
                        org.apache.avro.io.EncoderFactory.get().binaryEncoder(expected, null);
                new org.apache.avro.specific.SpecificDatumWriter<JobTransition>(JobTransition.getClassSchema(), data)
                        .write(records.get(i), encoder);
                encoder.flush();
                java.io.ByteArrayOutputStream written = new java.io.ByteArrayOutputStream();
                org.apache.avro.io.BinaryEncoder direct =
                        org.apache.avro.io.EncoderFactory.get().binaryEncoder(written, null);
                values.get(i).write(direct);
                direct.flush();
                assertThat(written.toByteArray()).as("%s", transitions.get(i)).isEqualTo(expected.toByteArray());
            }
        }
        assertThat(JobTransitionCodec.toValues(JobInfo.empty(), transitions, new JobTransitionCodec.Source("t", 0, 0)))
                .as("none once the job is gone")
                .isEmpty();
    }

    @Test
    void transitionsKeepTheirCauseAndTheInputsCoordinates() {
        Transition t = new Transition(
                io.lahar.core.api.JobPhase.Running,
                io.lahar.core.api.JobPhase.Restarting,
                "PodFailed",
                "RestartJob",
                "spec.policies[0]",
                "PodFailed",
                "pod tf-worker-0 exited 1",
                11_000);
        JobTransition r = JobTransitionCodec.toRecord(
                "ns", "tf", t, 1, 1, new JobTransitionCodec.Source("lahar.pod-events", 3, 42));
        assertThat(r.getFrom()).isEqualTo("Running");
        assertThat(r.getTo()).isEqualTo("Restarting");
        assertThat(r.getPolicy()).isEqualTo("spec.policies[0]");
        assertThat(r.getSourceTopic()).isEqualTo("lahar.pod-events");
        assertThat(r.getSourcePartition()).isEqualTo(3);
        assertThat(r.getSourceOffset()).isEqualTo(42);
        assertThat(r.getVersion()).isEqualTo(1);
    }

    @Test
    void commandsBecomeRequestsAndUnknownActionsAreRefusedByPath() {
        JobCommand.Builder c = JobCommand.newBuilder()
                .setRequestId("r")
                .setSender("s")
                .setNamespace("ns")
                .setName("tf")
                .setTime(Instant.ofEpochMilli(5));
        JobRequest r = JobCommandCodec.toRequest(
                c.setCommand(new JobActionCommand(JobAction.RestartTask, "worker", null, "why"))
                        .build());
        assertThat(r.body()).isEqualTo(new JobRequest.Act(Action.RESTART_TASK, "worker", null, "why"));
        assertThat(r.kind()).isEqualTo("RestartTask");
        assertThatThrownBy(() -> JobCommandCodec.toRequest(
                        c.setCommand(new JobActionCommand(JobAction.Unknown, null, null, null))
                                .build()))
                .hasMessageStartingWith("command.action: ");
    }
}
