package io.lahar.streams.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Action;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.api.Queue;
import io.lahar.core.command.ActionGate;
import io.lahar.core.command.JobCommands;
import io.lahar.core.command.JobRecord;
import io.lahar.core.command.JobRequest;
import io.lahar.core.job.Input;
import io.lahar.core.job.JobController;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.PodPhase;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lifecycle's pure pieces: the action gate, the stored entry, a job's queue share. */
class JobStatesTest {

    private static final String JOB = """
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata:
              name: j
            spec:
              ttlSecondsAfterFinished: 60
              policies:
              - event: PodFailed
                action: RestartJob
                timeout: 30s
              tasks:
              - name: w
                replicas: 2
                template:
                  spec:
                    containers:
                    - name: w
                      image: busybox
                      resources:
                        requests: {cpu: 250m}
            """;

    private final JobController controller = new JobController();

    private static Job admitted() {
        AdmissionContext ctx = AdmissionContext.of(List.of(
                AdmissionContext.openQueue(Queue.ROOT, null), AdmissionContext.openQueue(Queue.DEFAULT, Queue.ROOT)));
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

    private JobInfo running() {
        return apply(
                JobInfo.empty(),
                new Input.Submit(admitted(), 0),
                new Input.PodGroupObserved(PodGroupPhase.Inqueue, 1),
                new Input.PodObserved("j-w-0", "w", 0, 0, PodPhase.Running, null, 0, false, 2),
                new Input.PodObserved("j-w-1", "w", 1, 0, PodPhase.Running, null, 0, false, 3));
    }

    private static List<String> reasons(JobInfo info, Action action, String task, String pod) {
        return ActionGate.check(info, new JobRequest.Act(action, task, pod, null)).stream()
                .map(v -> v.path() + ": " + v.message())
                .toList();
    }

    @Test
    void actionsThatCannotApplyInThePhaseAreRefusedWithTheReason() {
        JobInfo running = running();
        assertThat(running.phase()).isEqualTo(JobPhase.Running);
        assertThat(reasons(running, Action.ABORT_JOB, null, null)).isEmpty();
        assertThat(reasons(running, Action.RESTART_POD, null, "j-w-1")).isEmpty();
        assertThat(reasons(running, Action.RESUME_JOB, null, null))
                .containsExactly("command.action: ResumeJob resumes an aborted job; the job is Running");
        assertThat(reasons(running, Action.RESTART_TASK, "ps", null))
                .containsExactly("command.task: the job has no task \"ps\"");
        assertThat(reasons(running, Action.RESTART_POD, null, "j-w-7"))
                .containsExactly("command.pod: the job has no pod \"j-w-7\" now");

        JobInfo aborted = apply(
                running,
                new Input.Command(Action.ABORT_JOB, null, null, 4),
                new Input.PodObserved("j-w-0", "w", 0, 0, PodPhase.Running, null, 0, true, 5),
                new Input.PodObserved("j-w-1", "w", 1, 0, PodPhase.Running, null, 0, true, 6));
        assertThat(aborted.phase()).isEqualTo(JobPhase.Aborted);
        assertThat(reasons(aborted, Action.RESUME_JOB, null, null)).isEmpty();
        assertThat(reasons(aborted, Action.RESTART_JOB, null, null))
                .containsExactly("command.action: job is Aborted: only ResumeJob applies, not RestartJob");

        JobInfo completed = apply(
                running,
                new Input.PodObserved("j-w-0", "w", 0, 0, PodPhase.Succeeded, 0, 0, false, 7),
                new Input.PodObserved("j-w-1", "w", 1, 0, PodPhase.Succeeded, 0, 0, false, 8));
        assertThat(completed.phase()).isEqualTo(JobPhase.Completed);
        assertThat(reasons(completed, Action.ABORT_JOB, null, null))
                .containsExactly("command.action: job is Completed, a final phase: AbortJob cannot change it");
    }

    @Test
    void theStoredEntryRoundTripsWithTimersAndPods() {
        // A failed pod arms the 30 s delayed restart: a timer the index must find.
        JobInfo armed = apply(running(), new Input.PodObserved("j-w-0", "w", 0, 0, PodPhase.Failed, 1, 0, false, 10));
        assertThat(armed.nextDue()).hasValue(30_010);
        JobEntry entry = new JobEntry(List.of(), armed, 3, List.of());
        JobStore.Codec codec = new JobStore.Codec();
        JobEntry back = codec.decode(codec.encode("default/j", entry));
        assertThat(back).isEqualTo(entry);
        assertThat(JobRecord.of(back.info(), back.recent()).exists()).isTrue();
        assertThat(JobRecord.of(back.info(), back.recent()).job()).isEqualTo(armed.job());

        JobInfo deleted = apply(armed, new Input.Delete(11));
        assertThat(JobRecord.of(deleted, List.of()).exists()).isFalse();
        assertThat(deleted.nextDue()).isEmpty();
    }

    @Test
    void anEntryTooLargeForOneRecordFailsLoudlyWithItsKey() {
        JobEntry huge = new JobEntry(
                List.of(),
                JobInfo.empty(),
                0,
                List.of(new io.lahar.core.api.PodGroup.PodGroupCondition(
                        "Unschedulable", "True", null, null, null, "x".repeat(JobStore.MAX_BYTES))));
        assertThatThrownBy(() -> new JobStore.Codec().encode("ns/big", huge))
                .hasMessageContaining("ns/big")
                .hasMessageContaining("limit");
    }
}
