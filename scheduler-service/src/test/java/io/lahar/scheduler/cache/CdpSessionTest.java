package io.lahar.scheduler.cache;

import static io.lahar.scheduler.Records.T0;
import static io.lahar.scheduler.Records.createPod;
import static io.lahar.scheduler.Records.intent;
import static io.lahar.scheduler.Records.node;
import static io.lahar.scheduler.Records.podEvent;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.scheduler.Records;
import io.lahar.scheduler.loop.SessionDecisions;
import io.lahar.scheduler.mapping.PodMapping;
import io.lahar.schema.CreatePod;
import io.lahar.schema.Evict;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.WorkloadKeys;
import io.lahar.schema.WorkloadPod;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The cdp plugin in the running scheduler: a pod's {@code volcano.sh/cooldown-time} comes from its
 * intent's labels or annotations, the time it was scheduled from its pod event (or, for another
 * workload's pod, its record), and a session at the loop's time spares it from preemption only
 * while the cooldown lasts.
 */
class CdpSessionTest {

    static final String COOLDOWN = "volcano.sh/cooldown-time";
    static final Instant SCHEDULED = T0.minus(Duration.ofMinutes(1));
    static final SchedulerConf CONF = SchedulerConf.parse(SchedulerConf.DEFAULT_YAML
            .replace("enqueue, allocate, backfill", "enqueue, allocate, backfill, preempt")
            .replace("  - name: conformance\n", "  - name: conformance\n  - name: cdp\n"));

    private final SchedulerCache cache = new SchedulerCache(Set.of("volcano"));

    @Test
    void theIntentsCooldownTimeLabelBeforeAnnotationAndNoneWhenItIsNoDuration() {
        CreatePod.Builder pod = createPod("j", "w", 0, "volcano", "1");
        assertThat(cooldownOf(pod.setAnnotations(Map.of(COOLDOWN, "10m")))).isEqualTo(Duration.ofMinutes(10));
        assertThat(cooldownOf(pod.setLabels(Map.of(COOLDOWN, "30s")))).isEqualTo(Duration.ofSeconds(30));
        assertThat(cooldownOf(pod.setLabels(Map.of(COOLDOWN, "soon")))).isNull();
        assertThat(cooldownOf(createPod("j", "w", 0, "volcano", "1"))).isNull();
    }

    private static Duration cooldownOf(CreatePod.Builder pod) {
        return PodMapping.toTaskInfo(pod.build(), 0, TaskStatus.Pending, null).cooldownTime();
    }

    /**
     * A one-node cluster of 2 cpu, classes low (1) and high (1000); job low's one 2-cpu pod was
     * scheduled at SCHEDULED with a 10m cooldown and is in {@code phase}.
     */
    private void low(String phase) {
        cache.onNode("n1", node("n1", "2", "8Gi", Map.of(), List.of()));
        cache.onQueue("default", Records.queue("default", 1));
        priorityClass("low", 1);
        priorityClass("high", 1000);
        job("low", "Running", 0, Map.of(COOLDOWN, "10m"));
        PodEvent event = podEvent("ns", "low", "low-w-0", phase, "n1", false);
        event.setScheduledTime(SCHEDULED);
        cache.onPodEvent("ns/low", Records.roundTrip(event));
    }

    private void priorityClass(String name, int value) {
        cache.onPriorityClass(
                name,
                Records.roundTrip(io.lahar.schema.PriorityClass.newBuilder()
                        .setName(name)
                        .setValue(value)
                        .setGlobalDefault(false)
                        .setTime(T0)
                        .build()));
    }

    /** A Job's gang of one 2-cpu pod, of the class named as the job. */
    private void job(String name, String phase, long created, Map<String, String> annotations) {
        PodGroup g = Records.podGroup("ns", name, "default", 1, phase, created);
        g.getSpec().setPriorityClassName(name);
        cache.onPodGroup("ns/" + name, Records.roundTrip(g));
        cache.onPodIntent(
                "ns/" + name,
                intent(
                        "ns",
                        name,
                        createPod(name, "w", 0, "volcano", "2")
                                .setPriorityClassName(name)
                                .setAnnotations(annotations)
                                .build()));
    }

    private List<String> evicted(Instant now) {
        Snapshot s = cache.snapshot(now);
        return SessionDecisions.apply(cache, s, new Scheduler(CONF).schedule(s), 1, "s", now).decisions().stream()
                .filter(d -> d.getDecision() instanceof Evict)
                .map(d -> ((Evict) d.getDecision()).getPod().toString())
                .toList();
    }

    @Test
    void aPodsScheduledTimeReachesTheSnapshotFromItsPodEventAndANewVersionForgetsIt() {
        low("Failed");
        TaskInfo t = cache.snapshot(T0).jobs().get(0).tasks().get(0);
        assertThat(t.cooldownTime()).isEqualTo(Duration.ofMinutes(10));
        assertThat(t.scheduledTime()).isEqualTo(SCHEDULED);

        cache.onPodIntent(
                "ns/low",
                intent(
                        "ns",
                        "low",
                        createPod("low", "w", 0, "volcano", "2")
                                .setJobVersion(1)
                                .setAnnotations(Map.of(COOLDOWN, "10m"))
                                .build()));
        assertThat(cache.snapshot(T0).jobs().get(0).tasks().get(0).scheduledTime())
                .as("the pod of the new version is not scheduled yet")
                .isNull();
    }

    @Test
    void preemptionSparesAPodOnlyWhileItsCooldownLasts() {
        low("Running");
        job("high", "Inqueue", 1, Map.of());

        assertThat(evicted(SCHEDULED.plus(Duration.ofMinutes(9)))).isEmpty();
        assertThat(evicted(SCHEDULED.plus(Duration.ofMinutes(11)))).containsExactly("low-w-0");
    }

    @Test
    void aScheduledTimeAfterTheEventThatReportsItIsTakenAsTheEventsOwnTime() {
        cache.onNode("n1", node("n1", "2", "8Gi", Map.of(), List.of()));
        cache.onQueue("default", Records.queue("default", 1));
        priorityClass("low", 1);
        job("low", "Running", 0, Map.of(COOLDOWN, "10m"));
        PodEvent event = podEvent("ns", "low", "low-w-0", "Running", "n1", false);
        event.setScheduledTime(T0.plus(Duration.ofDays(365 * 200)));
        cache.onPodEvent("ns/low", Records.roundTrip(event));

        TaskInfo t = cache.snapshot(T0).jobs().get(0).tasks().get(0);
        // So its cooldown ends ten minutes after the event, not two centuries later.
        assertThat(t.scheduledTime()).isEqualTo(event.getTime());
    }

    @Test
    void anotherWorkloadsPodCarriesItsScheduledTimeFromItsRecord() {
        PodGroup g = Records.podGroup("ns", WorkloadKeys.groupJob("spark"), "default", 1, "Running", 0);
        g.setName("spark");
        g.setOrigin(WorkloadKeys.ORIGIN_POD_GROUP);
        cache.onPodGroup(WorkloadKeys.groupKey("ns", "spark"), Records.roundTrip(g));
        CreatePod spec = createPod("spark", "x", 0, "volcano", "1")
                .setPod("spark-exec")
                .setPodGroup("spark")
                .setLabels(Map.of(COOLDOWN, "5m"))
                .build();
        cache.onWorkloadPod(
                "ns/spark-exec",
                Records.roundTrip(WorkloadPod.newBuilder()
                        .setNamespace("ns")
                        .setName("spark-exec")
                        .setSpec(spec)
                        .setPhase("Running")
                        .setNode("n1")
                        .setTime(T0)
                        .setScheduledTime(SCHEDULED)
                        .build()));
        TaskInfo t = cache.snapshot(T0).jobs().get(0).tasks().get(0);
        assertThat(t.cooldownTime()).isEqualTo(Duration.ofMinutes(5));
        assertThat(t.scheduledTime()).isEqualTo(SCHEDULED);
    }
}
