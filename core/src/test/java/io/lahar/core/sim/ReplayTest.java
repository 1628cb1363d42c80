package io.lahar.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Action;
import io.lahar.core.api.Job;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.PodPhase;
import io.lahar.core.job.TestJobs;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The streams app keeps a job's state as JSON between records. Over many random scripts, a run
 * whose state goes through JSON after every input reports exactly what an in-memory run does,
 * and no script breaks the engine's invariants.
 */
class ReplayTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Job JOB = TestJobs.admitted("""
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata: {name: r}
            spec:
              minAvailable: 2
              maxRetry: 4
              ttlSecondsAfterFinished: 120
              policies:
              - {event: PodEvicted, action: RestartJob}
              - {event: PodPending, action: AbortJob, timeout: 3m}
              - {exitCode: 7, action: TerminateJob}
              plugins: {svc: [], env: []}
              tasks:
              - name: a
                replicas: 1
                policies:
                - {event: PodFailed, action: RestartTask}
                template: {spec: {containers: [{name: c, image: i}]}}
              - name: b
                replicas: 2
                template: {spec: {containers: [{name: c, image: i}]}}
            """);

    private static final UnaryOperator<JobInfo> VIA_JSON = s -> {
        try {
            return JSON.readValue(JSON.writeValueAsString(s), JobInfo.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    };

    private static List<ScriptStep> script(Random r, int n) {
        List<ScriptStep> steps = new ArrayList<>();
        PodPhase[] phases = PodPhase.values();
        Action[] commands = {
            Action.ABORT_JOB,
            Action.RESUME_JOB,
            Action.RESTART_JOB,
            Action.COMPLETE_JOB,
            Action.TERMINATE_JOB,
            Action.RESTART_TASK,
            Action.SYNC_JOB
        };
        for (int i = 0; i < n; i++) {
            int line = i + 1;
            boolean taskA = r.nextBoolean();
            String task = taskA ? "a" : "b";
            int index = taskA ? 0 : r.nextInt(2);
            switch (r.nextInt(10)) {
                case 0 -> steps.add(new ScriptStep.CommandStep(line, commands[r.nextInt(commands.length)], task, null));
                case 1 -> steps.add(new ScriptStep.AdvanceStep(line, Duration.ofSeconds(30L * (1 + r.nextInt(8)))));
                case 2 -> steps.add(new ScriptStep.PodStep(line, task, index, null, null, null, true));
                case 3 ->
                    steps.add(new ScriptStep.PodStep(
                            line, task, index, PodPhase.Failed, r.nextBoolean() ? 7 : 1, null, false));
                default ->
                    steps.add(new ScriptStep.PodStep(
                            line,
                            task,
                            index,
                            phases[r.nextInt(3)],
                            null,
                            r.nextInt(4) == 0 ? r.nextInt(5) : null,
                            false));
            }
        }
        return steps;
    }

    @Test
    void stateThroughJsonChangesNothingAndInvariantsHold() {
        Random random = new Random(20261129L);
        for (int run = 0; run < 150; run++) {
            List<ScriptStep> steps = script(random, 25);
            Simulation live = new Simulation(JOB, AdmissionContext.freshInstall(), run % 3 == 0);
            Simulation stored = new Simulation(JOB, AdmissionContext.freshInstall(), run % 3 == 0, VIA_JSON);
            assertThat(stored.start()).isEqualTo(live.start());
            String finished = null;
            for (int i = 0; i < steps.size(); i++) {
                StepReport a = live.run(i + 1, steps.get(i));
                StepReport b = stored.run(i + 1, steps.get(i));
                assertThat(b).as("run %d step %d: %s", run, i + 1, steps.get(i)).isEqualTo(a);
                assertThat(a.pending() + a.running() + a.succeeded() + a.failed() + a.unknown())
                        .as("live pods never exceed replicas")
                        .isLessThanOrEqualTo(3 + 3);
                assertThat(a.retryCount()).isLessThanOrEqualTo(4);
                if (finished != null) {
                    assertThat(a.phase()).as("a finished job stays finished").isEqualTo(finished);
                } else if (List.of("Completed", "Failed", "Terminated").contains(a.phase())) {
                    finished = a.phase();
                }
                assertThat(a.message()).isNotBlank();
            }
            assertThat(stored.actions()).isEqualTo(live.actions());
        }
    }
}
