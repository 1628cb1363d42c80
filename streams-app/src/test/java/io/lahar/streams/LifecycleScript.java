package io.lahar.streams;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Job;
import io.lahar.core.api.Queue;
import io.lahar.core.command.JobCommands;
import io.lahar.core.command.JobRequest;
import io.lahar.core.sim.ScriptParser;
import io.lahar.core.sim.ScriptStep;
import io.lahar.core.sim.Simulation;
import io.lahar.core.sim.StepReport;
import io.lahar.schema.JobAction;
import io.lahar.schema.JobActionCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.SubmitJob;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The scenarios the lifecycle tests drive through the topology, and what {@code lahar simulate}
 * (the core's {@link Simulation}, in process) says of the same script.
 */
final class LifecycleScript {

    /** The seed's tf-job cut to 1 ps + 2 workers, with a restart policy and maxRetry 2. */
    static String tfJob(String name) {
        return """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: %s
                spec:
                  minAvailable: 3
                  maxRetry: 2
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
                  - name: worker
                    replicas: 2
                    template:
                      spec:
                        containers:
                        - name: worker
                          image: worker-img
                """.formatted(name);
    }

    /** All three pods run, then worker 0 fails — twice: one restart, then Failed at maxRetry 2. */
    static final String RESTART_UNTIL_FAILED = """
            {"pod":{"task":"ps","index":0,"phase":"Running"}}
            {"pod":{"task":"worker","index":0,"phase":"Running"}}
            {"pod":{"task":"worker","index":1,"phase":"Running"}}
            {"pod":{"task":"worker","index":0,"phase":"Failed","exitCode":1}}
            {"pod":{"task":"ps","index":0,"phase":"Running"}}
            {"pod":{"task":"worker","index":0,"phase":"Running"}}
            {"pod":{"task":"worker","index":1,"phase":"Running"}}
            {"pod":{"task":"worker","index":0,"phase":"Failed","exitCode":1}}
            """;

    /** All three pods run, then all succeed. */
    static final String RUN_TO_COMPLETION = """
            {"pod":{"task":"ps","index":0,"phase":"Running"}}
            {"pod":{"task":"worker","index":0,"phase":"Running"}}
            {"pod":{"task":"worker","index":1,"phase":"Running"}}
            {"pod":{"task":"worker","index":0,"phase":"Succeeded","exitCode":0}}
            {"pod":{"task":"worker","index":1,"phase":"Succeeded","exitCode":0}}
            {"pod":{"task":"ps","index":0,"phase":"Succeeded","exitCode":0}}
            """;

    private LifecycleScript() {}

    static List<ScriptStep> steps(String script) {
        return ScriptParser.parse(script);
    }

    /** The phases the simulated job enters, in order, from its creation to the script's end. */
    static List<String> simulatedPhases(String manifest, String script) {
        AdmissionContext admission = AdmissionContext.of(List.of(
                AdmissionContext.openQueue(Queue.ROOT, null), AdmissionContext.openQueue(Queue.DEFAULT, Queue.ROOT)));
        JobCommands.Decision d = JobCommands.decide(
                null,
                new JobRequest("sim", "test", "default", nameOf(manifest), 0, new JobRequest.Submit(manifest)),
                admission);
        Job admitted = d.next().job();
        Simulation sim = new Simulation(admitted, admission, false);
        List<String> phases = new ArrayList<>(sim.start().transitions());
        List<ScriptStep> steps = steps(script);
        for (int i = 0; i < steps.size(); i++) {
            StepReport r = sim.run(i + 1, steps.get(i));
            phases.addAll(r.transitions());
        }
        return phases;
    }

    private static String nameOf(String manifest) {
        return manifest.lines()
                .filter(l -> l.startsWith("  name: "))
                .findFirst()
                .orElseThrow()
                .substring(8)
                .strip();
    }

    static JobCommand submit(String requestId, String name, String manifest, long time) {
        return JobCommand.newBuilder()
                .setRequestId(requestId)
                .setSender("test")
                .setNamespace("default")
                .setName(name)
                .setTime(Instant.ofEpochMilli(time))
                .setCommand(new SubmitJob(manifest))
                .build();
    }

    static JobCommand act(String requestId, String name, JobAction action, long time) {
        return JobCommand.newBuilder()
                .setRequestId(requestId)
                .setSender("test")
                .setNamespace("default")
                .setName(name)
                .setTime(Instant.ofEpochMilli(time))
                .setCommand(new JobActionCommand(action, null, null, null))
                .build();
    }

    static PodEvent podEvent(
            String job,
            String task,
            int index,
            int version,
            String phase,
            Integer exitCode,
            boolean deleted,
            long time) {
        return PodEvent.newBuilder()
                .setNamespace("default")
                .setJob(job)
                .setPod(job + "-" + task + "-" + index)
                .setTask(task)
                .setIndex(index)
                .setJobVersion(version)
                .setPhase(phase)
                .setContainers(
                        exitCode == null
                                ? List.of()
                                : List.of(io.lahar.schema.ContainerStatus.newBuilder()
                                        .setName(task)
                                        .setExitCode(exitCode)
                                        .build()))
                .setDeleted(deleted)
                .setTime(Instant.ofEpochMilli(time))
                .build();
    }

    static SchedulerDecision podGroupPhase(String job, String podGroup, String phase, long time) {
        return SchedulerDecision.newBuilder()
                .setNamespace("default")
                .setJob(job)
                .setPodGroup(podGroup)
                .setEpoch(1)
                .setTime(Instant.ofEpochMilli(time))
                .setDecision(PodGroupStatus.newBuilder().setPhase(phase).build())
                .build();
    }
}
