package io.lahar.core.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Action;
import io.lahar.core.api.JobPhase;
import org.junit.jupiter.api.Test;

class JobCommandsTest {

    private static final AdmissionContext FRESH = AdmissionContext.freshInstall();

    /** A minimal Volcano Job manifest: one task {@code worker} of {@code replicas} busybox pods. */
    static String job(String name, int replicas) {
        return """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: %s
                spec:
                  tasks:
                  - name: worker
                    replicas: %d
                    template:
                      spec:
                        containers:
                        - name: w
                          image: busybox
                """.formatted(name, replicas);
    }

    private static JobRequest request(String id, String name, JobRequest.Body body) {
        return new JobRequest(id, "test", "default", name, 1_000L, body);
    }

    @Test
    void submitAdmitsDefaultsAndStartsPending() {
        var decision = JobCommands.decide(null, request("r1", "j", new JobRequest.Submit(job("j", 2))), FRESH);
        assertThat(decision.effect()).isEqualTo(JobCommands.Effect.SUBMITTED);
        assertThat(decision.verdict().accepted()).isTrue();
        var job = decision.next().job();
        assertThat(job.spec().queue()).isEqualTo("default");
        assertThat(job.spec().minAvailable()).isEqualTo(2);
        assertThat(job.status().state().phase()).isEqualTo(JobPhase.Pending);
        assertThat(job.metadata().uid()).isNotBlank();
        assertThat(job.metadata().creationTimestamp()).isEqualTo("1970-01-01T00:00:01Z");
    }

    @Test
    void sameRequestGivesTheSameUidOnReplay() {
        var first = JobCommands.decide(null, request("r1", "j", new JobRequest.Submit(job("j", 2))), FRESH);
        var again = JobCommands.decide(null, request("r1", "j", new JobRequest.Submit(job("j", 2))), FRESH);
        assertThat(again.next().job().metadata().uid())
                .isEqualTo(first.next().job().metadata().uid());
    }

    @Test
    void aSecondSubmitIsRejectedButARetryIsAnsweredAlike() {
        var first = JobCommands.decide(null, request("r1", "j", new JobRequest.Submit(job("j", 2))), FRESH);
        var second = JobCommands.decide(first.next(), request("r2", "j", new JobRequest.Submit(job("j", 2))), FRESH);
        assertThat(second.verdict().accepted()).isFalse();
        assertThat(second.verdict().violations())
                .extracting(Object::toString)
                .containsExactly("metadata.name: job \"default/j\" already exists");
        var retry = JobCommands.decide(second.next(), request("r1", "j", new JobRequest.Submit(job("j", 2))), FRESH);
        assertThat(retry.effect()).isEqualTo(JobCommands.Effect.REPLAYED);
        assertThat(retry.verdict()).isEqualTo(first.verdict());
        assertThat(retry.next()).isNull();
    }

    @Test
    void invalidManifestIsRejectedWithEveryReasonAndLeavesNoTrace() {
        var decision = JobCommands.decide(null, request("r1", "j", new JobRequest.Submit("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: other
                spec:
                  minAvailable: -1
                  tasks: []
                """)), FRESH);
        assertThat(decision.verdict().accepted()).isFalse();
        assertThat(decision.verdict().violations()).extracting(v -> v.path()).contains("metadata.name");
        assertThat(decision.next()).isNull();
    }

    @Test
    void admissionViolationsAreReported() {
        var decision = JobCommands.decide(null, request("r1", "j", new JobRequest.Submit("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: j
                spec:
                  minAvailable: 5
                  queue: nowhere
                  tasks:
                  - name: worker
                    replicas: 2
                    template:
                      spec:
                        containers:
                        - name: w
                          image: busybox
                """)), FRESH);
        assertThat(decision.verdict().violations())
                .extracting(v -> v.path())
                .contains("spec.minAvailable", "spec.queue");
    }

    @Test
    void unreadableManifestIsRejected() {
        var decision = JobCommands.decide(null, request("r1", "j", new JobRequest.Submit("{ not: [yaml")), FRESH);
        assertThat(decision.verdict().accepted()).isFalse();
        assertThat(decision.verdict().violations()).extracting(v -> v.path()).containsExactly("manifest");
    }

    @Test
    void updateOfAMissingJobIsRejected() {
        var decision = JobCommands.decide(null, request("r1", "j", new JobRequest.Update(job("j", 3))), FRESH);
        assertThat(decision.verdict().violations())
                .extracting(Object::toString)
                .containsExactly("metadata.name: job \"default/j\" not found");
    }

    @Test
    void scaleUpdateKeepsIdentityAndStatus() {
        var created = JobCommands.decide(null, request("r1", "j", new JobRequest.Submit(job("j", 2))), FRESH);
        var updated = JobCommands.decide(
                created.next(),
                request(
                        "r2",
                        "j",
                        new JobRequest.Update(job("j", 4).replace("  tasks:", "  minAvailable: 4\n  tasks:"))),
                FRESH);
        assertThat(updated.effect())
                .as(updated.verdict().violations().toString())
                .isEqualTo(JobCommands.Effect.UPDATED);
        assertThat(updated.next().job().metadata().uid())
                .isEqualTo(created.next().job().metadata().uid());
        assertThat(updated.next().job().status().minAvailable()).isEqualTo(4);
        assertThat(updated.next().job().status().state().phase()).isEqualTo(JobPhase.Pending);
    }

    @Test
    void deleteForgetsTheJobButRemembersTheVerdict() {
        var created = JobCommands.decide(null, request("r1", "j", new JobRequest.Submit(job("j", 2))), FRESH);
        var deleted = JobCommands.decide(created.next(), request("r2", "j", new JobRequest.Delete(null)), FRESH);
        assertThat(deleted.effect()).isEqualTo(JobCommands.Effect.DELETED);
        assertThat(deleted.next().exists()).isFalse();
        var retried = JobCommands.decide(deleted.next(), request("r2", "j", new JobRequest.Delete(null)), FRESH);
        assertThat(retried.verdict().accepted()).isTrue();
        var resubmitted =
                JobCommands.decide(deleted.next(), request("r3", "j", new JobRequest.Submit(job("j", 2))), FRESH);
        assertThat(resubmitted.effect()).isEqualTo(JobCommands.Effect.SUBMITTED);
    }

    @Test
    void actionsNeedAnExistingJob() {
        var decision = JobCommands.decide(
                null, request("r1", "j", new JobRequest.Act(Action.ABORT_JOB, null, null, null)), FRESH);
        assertThat(decision.verdict().accepted()).isFalse();
        assertThat(decision.verdict().kind()).isEqualTo("AbortJob");
    }

    @Test
    void historyIsBounded() {
        var record = JobCommands.decide(null, request("r0", "j", new JobRequest.Submit(job("j", 2))), FRESH)
                .next();
        for (int i = 1; i <= 100; i++) {
            record = JobCommands.decide(record, request("r" + i, "j", new JobRequest.Submit(job("j", 2))), FRESH)
                    .next();
        }
        assertThat(record.recent()).hasSize(JobRecord.RECENT_LIMIT);
    }
}
