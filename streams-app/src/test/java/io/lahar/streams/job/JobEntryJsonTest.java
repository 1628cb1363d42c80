package io.lahar.streams.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectWriter;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.Action;
import io.lahar.core.api.Event;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.JobState;
import io.lahar.core.api.JobStatus;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.api.Queue;
import io.lahar.core.command.JobCommands;
import io.lahar.core.command.JobRecord;
import io.lahar.core.command.JobRequest;
import io.lahar.core.command.JobVerdict;
import io.lahar.core.job.Input;
import io.lahar.core.job.JobController;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.JobPod;
import io.lahar.core.job.PodPhase;
import io.lahar.core.job.Timer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The entry's JSON writer gives databind's bytes, whatever it remembers. */
class JobEntryJsonTest {

    private static final String JOB = """
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata:
              name: j
              labels:
                team: a
            spec:
              minAvailable: 3
              ttlSecondsAfterFinished: 60
              plugins:
                env: []
                svc: []
              policies:
              - event: PodEvicted
                action: RestartJob
              tasks:
              - name: ps
                replicas: 1
                template:
                  spec:
                    containers:
                    - name: ps
                      image: ps-img
              - name: worker
                replicas: 2
                policies:
                - exitCode: 3
                  action: AbortJob
                template:
                  spec:
                    containers:
                    - name: worker
                      image: worker-img
                      resources:
                        requests:
                          cpu: 500m
            """;

    private static final ObjectWriter DATABIND = Manifests.jsonMapper().writerFor(JobEntry.class);

    private final JobController controller = new JobController();

    private static String databind(JobEntry entry) throws Exception {
        return DATABIND.writeValueAsString(entry);
    }

    private static String written(JobEntryJson json, JobEntry entry) {
        return written(json, "ns/job", entry);
    }

    private static String written(JobEntryJson json, String key, JobEntry entry) {
        JsonBytes out = new JsonBytes();
        json.write(out, key, entry);
        return new String(out.toByteArray(), StandardCharsets.UTF_8);
    }

    /** Entries along a job's life: submitted, running, one pod failed with a code, completed (a TTL timer). */
    private List<JobEntry> lifeOfAJob() {
        AdmissionContext ctx = AdmissionContext.of(List.of(
                AdmissionContext.openQueue(Queue.ROOT, null), AdmissionContext.openQueue(Queue.DEFAULT, Queue.ROOT)));
        JobCommands.Decision submit =
                JobCommands.decide(null, new JobRequest("r1", "t", "default", "j", 0, new JobRequest.Submit(JOB)), ctx);
        JobVerdict refused = new JobVerdict(
                "r2",
                "UpdateJob",
                false,
                List.of(new Violation("spec.tasks[0].replicas", "must not be negative")),
                null,
                5);
        List<JobEntry> entries = new ArrayList<>();
        JobInfo info = controller
                .apply(JobInfo.empty(), new Input.Submit(submit.next().job(), 0))
                .state();
        JobEntry entry = new JobEntry(List.of(submit.verdict()), info, 0, List.of());
        entries.add(entry);
        entry = entry.withRecent(JobRecord.of(entry.info(), entry.recent()).recentWith(refused))
                .withScheduler(
                        2,
                        List.of(new PodGroup.PodGroupCondition(
                                "Unschedulable",
                                "True",
                                "tid",
                                "1970-01-01T00:00:01Z",
                                "NotEnoughResources",
                                "0/3 nodes are available")));
        entries.add(entry);
        info = controller
                .apply(entry.info(), new Input.PodGroupObserved(PodGroupPhase.Inqueue, 1, null, null))
                .state();
        String[] pods = {"j-ps-0", "j-worker-0", "j-worker-1"};
        for (int i = 0; i < pods.length; i++) {
            String task = i == 0 ? "ps" : "worker";
            int index = i == 0 ? 0 : i - 1;
            info = controller
                    .apply(
                            info,
                            new Input.PodObserved(pods[i], task, index, 0, PodPhase.Running, null, 0, false, 2 + i))
                    .state();
            entries.add(entry.withInfo(info));
        }
        info = controller
                .apply(info, new Input.PodObserved("j-worker-1", "worker", 1, 0, PodPhase.Failed, 137, 2, false, 10))
                .state();
        entries.add(entry.withInfo(info));
        for (int i = 0; i < 2; i++) {
            String task = i == 0 ? "ps" : "worker";
            info = controller
                    .apply(info, new Input.PodObserved(pods[i], task, 0, 0, PodPhase.Succeeded, 0, 0, false, 20 + i))
                    .state();
            entries.add(entry.withInfo(info));
        }
        return entries;
    }

    @Test
    void everyEntryOfAJobsLifeIsWrittenAsDatabindWritesIt() throws Exception {
        JobEntryJson json = new JobEntryJson(64);
        List<JobEntry> entries = lifeOfAJob();
        assertThat(entries.getLast().info().timers())
                .as("the run reaches a timer")
                .isNotEmpty();
        assertThat(entries.getLast().info().pods().values())
                .extracting(JobPod::exitCode)
                .contains(137);
        for (int round = 0; round < 2; round++) {
            // The second round writes from what the first one remembered.
            for (JobEntry entry : entries) {
                assertThat(written(json, entry)).isEqualTo(databind(entry));
            }
        }
    }

    @Test
    void aNewSpecIsWrittenAfreshNotFromTheOldOnesText() throws Exception {
        JobEntryJson json = new JobEntryJson(64);
        JobEntry entry = lifeOfAJob().getLast();
        written(json, entry);
        Job job = entry.info().job();
        JobSpec s = job.spec();
        JobSpec rescaled = new JobSpec(
                s.schedulerName(),
                1,
                s.volumes(),
                s.tasks(),
                s.policies(),
                s.plugins(),
                s.runningEstimate(),
                s.queue(),
                5,
                s.ttlSecondsAfterFinished(),
                s.priorityClassName(),
                s.minSuccess(),
                s.networkTopology());
        JobInfo i = entry.info();
        JobEntry updated = entry.withInfo(new JobInfo(
                job.withSpec(rescaled),
                i.pods(),
                i.timers(),
                i.podGroupSpec(),
                i.podGroupPhase(),
                i.configMaps(),
                i.createdAt(),
                i.deleted(),
                i.lastCause()));
        assertThat(written(json, updated)).isEqualTo(databind(updated)).contains("\"maxRetry\":5");
    }

    @Test
    void whatIsForgottenPastTheCapacityIsRenderedAgain() throws Exception {
        JobEntryJson json = new JobEntryJson(1);
        List<JobEntry> life = lifeOfAJob();
        for (JobEntry entry : life) {
            assertThat(written(json, entry)).isEqualTo(databind(entry));
        }
        // Two jobs written in turn, one remembered at a time: each is written from its own parts.
        JobEntry other = renamed(life.getLast(), "other");
        for (int round = 0; round < 3; round++) {
            assertThat(written(json, "ns/job", life.getLast())).isEqualTo(databind(life.getLast()));
            assertThat(written(json, "ns/other", other))
                    .isEqualTo(databind(other))
                    .contains("\"name\":\"other\"");
        }
    }

    @Test
    void verdictsThatMoveUpTheListAreWrittenAsTheyAre() throws Exception {
        JobEntryJson json = new JobEntryJson(4);
        JobEntry entry = lifeOfAJob().getLast();
        List<JobVerdict> recent = entry.recent();
        assertThat(recent).as("the job's life has its submission's verdict").isNotEmpty();
        JobVerdict second = new JobVerdict("r2", "update", false, List.of(), null, 99);
        JobEntry two = entry.withRecent(List.of(recent.getFirst(), second));
        JobEntry shifted = entry.withRecent(List.of(second));
        for (JobEntry e : List.of(two, shifted, two, entry)) {
            assertThat(written(json, e)).isEqualTo(databind(e));
        }
    }

    /** The same entry for a job of another name (its metadata a new object). */
    private static JobEntry renamed(JobEntry entry, String name) {
        JobInfo i = entry.info();
        Job job = i.job().withMetadata(i.job().metadata().withName(name));
        return entry.withInfo(new JobInfo(
                job,
                i.pods(),
                i.timers(),
                i.podGroupSpec(),
                i.podGroupPhase(),
                i.configMaps(),
                i.createdAt(),
                i.deleted(),
                i.lastCause()));
    }

    @Test
    void aPodIsWrittenAsDatabindWritesTheRecordWithEveryComponentSet() throws Exception {
        // Every component non-default: a component added to JobPod and not written fails here.
        TreeMap<String, JobPod> pods = new TreeMap<>();
        pods.put("a", new JobPod("a", "worker", 3, 2, PodPhase.Failed, 137, 4, true, true, "node-7"));
        pods.put("b", new JobPod("b", "ps", 0, 0, PodPhase.Pending, null, 0, false, false));
        pods.put("c", new JobPod(null, null, 1, 1, null, -1, 1, false, true));
        JobInfo info = new JobInfo(null, pods, null, null, null, null, 0, false, null);
        JobEntry entry = new JobEntry(List.of(), info, 0, List.of());
        assertThat(written(new JobEntryJson(4), entry))
                .isEqualTo(databind(entry))
                .contains("\"exitCode\":137");
    }

    @Test
    void everyComponentOfTheEntryItsInfoJobAndStatusIsWrittenAsDatabindWritesIt() throws Exception {
        // Every component set, nulls inside maps and lists included: a component added to one of
        // these records and not written fails here.
        JobEntry base = lifeOfAJob().getLast();
        Job job = base.info().job();
        Map<String, Integer> psCounts = new LinkedHashMap<>();
        psCounts.put("Running", 1);
        psCounts.put("Failed", null);
        Map<String, JobStatus.TaskState> tasks = new TreeMap<>();
        tasks.put("ps", new JobStatus.TaskState(psCounts));
        tasks.put("worker", new JobStatus.TaskState(null));
        tasks.put("gone", null);
        Map<String, String> controlled = new LinkedHashMap<>();
        controlled.put("plugin-svc", "svc");
        controlled.put("none", null);
        JobStatus status = new JobStatus(
                new JobState(
                        JobPhase.Restarting,
                        "PodFailed",
                        "pod j-worker-1 exited 137 -> RestartJob \"q\" \u00e9\n",
                        "1970-01-01T00:00:10Z"),
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
                "1m0s",
                controlled,
                Arrays.asList(
                        new JobStatus.JobCondition(JobPhase.Pending, "1970-01-01T00:00:00Z"),
                        new JobStatus.JobCondition(null, null),
                        null));
        Job full = new Job(Job.API_VERSION, Job.KIND, job.metadata(), job.spec(), status);
        PodGroup.PodGroupSpec podGroup =
                new PodGroup.PodGroupSpec(3, Map.of("ps", 1), "default", "high", Map.of("cpu", "1"), null, null);
        List<Timer> timers = List.of(
                new Timer.DelayedAction(
                        50,
                        Event.POD_PENDING,
                        Action.RESTART_JOB,
                        "worker",
                        "j-worker-0",
                        1,
                        "spec.policies[0]",
                        "waited"),
                new Timer.TtlAfterFinished(99));
        JobInfo info = new JobInfo(
                full,
                base.info().pods(),
                timers,
                podGroup,
                PodGroupPhase.Inqueue,
                Map.of("j-svc", Map.of("hosts", "a,b")),
                42,
                true,
                "PodFailed: pod j-worker-1 exited 137");
        JobEntry entry = new JobEntry(
                base.recent(),
                info,
                7,
                List.of(new PodGroup.PodGroupCondition(
                        "Unschedulable", "True", "tid", "1970-01-01T00:00:01Z", "NotEnoughResources", "0/3 nodes")));
        JobEntryJson json = new JobEntryJson(64);
        for (int round = 0; round < 2; round++) {
            assertThat(written(json, entry)).isEqualTo(databind(entry));
        }
        assertThat(written(json, entry))
                .contains(
                        "\"retryCount\":8",
                        "\"TtlAfterFinished\"",
                        "\"lastCause\"",
                        "\"podGroupPhase\":\"Inqueue\"",
                        "\"hosts\":\"a,b\"");
    }

    @Test
    void nullComponentsAreLeftOutAsDatabindLeavesThemOut() throws Exception {
        JobStatus status = new JobStatus(
                new JobState(null, null, null, null),
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
        JobInfo info =
                new JobInfo(new Job(null, null, null, null, status), null, null, null, null, null, 0, false, null);
        JobEntry entry = new JobEntry(null, info, 0, null);
        assertThat(written(new JobEntryJson(4), entry)).isEqualTo(databind(entry));
        JobEntry bare = new JobEntry(
                null,
                new JobInfo(new Job(null, null, null, null, null), null, null, null, null, null, 0, false, null),
                0,
                null);
        assertThat(written(new JobEntryJson(4), bare)).isEqualTo(databind(bare));
        assertThat(written(new JobEntryJson(4), JobEntry.empty())).isEqualTo(databind(JobEntry.empty()));
    }
}
