package io.lahar.cli.replay;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Queue;
import io.lahar.core.command.JobCommands;
import io.lahar.core.job.PodGroups;
import io.lahar.schema.ContainerStatus;
import io.lahar.schema.JobCommand;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Tick;
import io.lahar.schema.codec.JobCommandCodec;
import java.time.Instant;
import java.util.List;

/** Input records of one small job (1 task, 1 replica), shared by the replay's unit test and IT. */
public final class ReplayScript {

    private ReplayScript() {}

    public static String manifest(String name) {
        return """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: %s
                spec:
                  minAvailable: 1
                  tasks:
                  - name: main
                    replicas: 1
                    template:
                      spec:
                        containers:
                        - name: main
                          image: busybox
                """.formatted(name);
    }

    public static JobCommand submit(String requestId, String name, long time) {
        return JobCommand.newBuilder()
                .setRequestId(requestId)
                .setSender("test")
                .setNamespace("default")
                .setName(name)
                .setTime(Instant.ofEpochMilli(time))
                .setCommand(new SubmitJob(manifest(name)))
                .build();
    }

    /** The pod group the engine creates for the job that {@code submit} admits (the core is deterministic). */
    public static String podGroup(JobCommand submit) {
        AdmissionContext admission = AdmissionContext.of(List.of(
                AdmissionContext.openQueue(Queue.ROOT, null), AdmissionContext.openQueue(Queue.DEFAULT, Queue.ROOT)));
        return PodGroups.name(JobCommands.decide(null, JobCommandCodec.toRequest(submit), admission)
                .next()
                .job());
    }

    public static SchedulerDecision podGroupPhase(String job, String podGroup, long epoch, String phase, long time) {
        return SchedulerDecision.newBuilder()
                .setNamespace("default")
                .setJob(job)
                .setPodGroup(podGroup)
                .setEpoch(epoch)
                .setTime(Instant.ofEpochMilli(time))
                .setDecision(PodGroupStatus.newBuilder().setPhase(phase).build())
                .build();
    }

    public static PodEvent pod(String job, String phase, Integer exitCode, long time) {
        return PodEvent.newBuilder()
                .setNamespace("default")
                .setJob(job)
                .setPod(job + "-main-0")
                .setTask("main")
                .setIndex(0)
                .setJobVersion(0)
                .setPhase(phase)
                .setContainers(
                        exitCode == null
                                ? List.of()
                                : List.of(ContainerStatus.newBuilder()
                                        .setName("main")
                                        .setExitCode(exitCode)
                                        .build()))
                .setDeleted(false)
                .setTime(Instant.ofEpochMilli(time))
                .build();
    }

    public static Tick tick(long time) {
        return new Tick(Instant.ofEpochMilli(time));
    }
}
