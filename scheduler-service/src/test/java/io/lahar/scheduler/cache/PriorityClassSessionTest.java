package io.lahar.scheduler.cache;

import static io.lahar.scheduler.Records.createPod;
import static io.lahar.scheduler.Records.intent;
import static io.lahar.scheduler.Records.node;
import static io.lahar.scheduler.Records.podEvent;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.scheduler.Records;
import io.lahar.scheduler.loop.SessionDecisions;
import io.lahar.schema.Bind;
import io.lahar.schema.Evict;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PriorityClass;
import io.lahar.schema.SchedulerDecision;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A Lahar Job's priorityClassName, carried out by the scheduler as Volcano's: at each session a pod
 * group's priority is its class's value on {@code lahar.priority-classes} (a class that does not
 * exist: the global default's, else 0) and a pod's likewise, whatever the pod-group record's
 * {@code priority} says (the engine writes 0); so a class created, changed or deleted after the
 * jobs were submitted reorders them at the next session, and a high class preempts a low one.
 */
class PriorityClassSessionTest {

    private static final SchedulerConf WITH_PREEMPT = SchedulerConf.parse(
            SchedulerConf.DEFAULT_YAML.replace("enqueue, allocate, backfill", "enqueue, allocate, backfill, preempt"));

    private final SchedulerCache cache = new SchedulerCache(Set.of("volcano"));

    private static PriorityClass priorityClass(String name, int value, boolean globalDefault) {
        return Records.roundTrip(PriorityClass.newBuilder()
                .setName(name)
                .setValue(value)
                .setGlobalDefault(globalDefault)
                .setTime(Records.T0)
                .build());
    }

    private void priorityClass(String name, int value) {
        cache.onPriorityClass(name, priorityClass(name, value, false));
    }

    /** A one-node cluster of 2 cpu and the default queue. */
    private void cluster() {
        cache.onNode("n1", node("n1", "2", "8Gi", Map.of(), List.of()));
        cache.onQueue("default", Records.queue("default", 1));
    }

    /** A Job's gang as the engine writes it (record priority 0) with one pod of 2 cpu, naming the job's class. */
    private void job(String name, String className, String phase, long created) {
        PodGroup g = Records.podGroup("ns", name, "default", 1, phase, created);
        g.getSpec().setPriorityClassName(className);
        cache.onPodGroup("ns/" + name, Records.roundTrip(g));
        cache.onPodIntent(
                "ns/" + name,
                intent(
                        "ns",
                        name,
                        createPod(name, "w", 0, "volcano", "2")
                                .setPriorityClassName(className)
                                .build()));
    }

    private Map<String, Integer> jobPriorities() {
        return cache.snapshot().jobs().stream().collect(Collectors.toMap(JobInfo::name, JobInfo::priority));
    }

    private List<SchedulerDecision> session(SchedulerConf conf) {
        Snapshot s = cache.snapshot();
        return SessionDecisions.apply(cache, s, new Scheduler(conf).schedule(s), 1, "s", Records.T0)
                .decisions();
    }

    private static List<String> bound(List<SchedulerDecision> decisions) {
        return decisions.stream()
                .filter(d -> d.getDecision() instanceof Bind)
                .map(d -> ((Bind) d.getDecision()).getPod())
                .toList();
    }

    private static List<String> evicted(List<SchedulerDecision> decisions) {
        return decisions.stream()
                .filter(d -> d.getDecision() instanceof Evict)
                .map(d -> ((Evict) d.getDecision()).getPod())
                .toList();
    }

    @Test
    void withoutItsClassTheEarlierJobGoesFirst() {
        cluster();
        job("early", null, "Inqueue", 0);
        job("late", "urgent", "Inqueue", 1);

        assertThat(jobPriorities())
                .as("no class on the topic, no global default")
                .containsOnly(Map.entry("early", 0), Map.entry("late", 0));
        assertThat(bound(session(SchedulerConf.defaults()))).containsExactly("early-w-0");
    }

    @Test
    void aClassCreatedAfterTheJobsWereSubmittedPutsItsJobFirstAtTheNextSession() {
        cluster();
        job("early", null, "Inqueue", 0);
        job("late", "urgent", "Inqueue", 1);
        assertThat(jobPriorities()).containsEntry("late", 0);

        priorityClass("urgent", 1000);

        assertThat(jobPriorities()).containsOnly(Map.entry("early", 0), Map.entry("late", 1000));
        assertThat(cache.snapshot().jobs())
                .filteredOn(j -> j.name().equals("late"))
                .singleElement()
                .satisfies(j ->
                        assertThat(j.tasks()).extracting(TaskInfo::priority).containsExactly(1000));
        assertThat(bound(session(SchedulerConf.defaults())))
                .as("only its class puts the later job first")
                .containsExactly("late-w-0");
    }

    @Test
    void aClassChangedOrDeletedAndTheGlobalDefaultAreResolvedAgainAtTheNextSnapshot() {
        cluster();
        job("plain", null, "Inqueue", 0);
        job("named", "urgent", "Inqueue", 1);
        priorityClass("urgent", 1000);
        assertThat(jobPriorities()).containsOnly(Map.entry("plain", 0), Map.entry("named", 1000));

        priorityClass("urgent", 2000);
        assertThat(jobPriorities()).containsEntry("named", 2000);

        cache.onPriorityClass("normal", priorityClass("normal", 50, true));
        assertThat(jobPriorities())
                .as("a job naming no class: the global default's value")
                .containsOnly(Map.entry("plain", 50), Map.entry("named", 2000));

        cache.onPriorityClass("urgent", null);
        assertThat(jobPriorities())
                .as("its class deleted: the global default's value")
                .containsOnly(Map.entry("plain", 50), Map.entry("named", 50));

        cache.onPriorityClass("normal", null);
        assertThat(jobPriorities()).containsOnly(Map.entry("plain", 0), Map.entry("named", 0));
    }

    @Test
    void aPodsOwnClassOrPriorityOrdersTheTasksOfItsJob() {
        cluster();
        PodGroup g = Records.podGroup("ns", "mpi", "default", 1, "Inqueue", 0);
        g.getSpec().setPriorityClassName("batch");
        cache.onPodGroup("ns/mpi", Records.roundTrip(g));
        mpiPod("master", 0, "urgent", null);
        mpiPod("worker", 0, "batch", null);
        mpiPod("worker", 1, "batch", 7);
        priorityClass("urgent", 1000);
        priorityClass("batch", 10);

        assertThat(cache.snapshot().jobs().get(0).tasks())
                .extracting(TaskInfo::name, TaskInfo::priority)
                .as("the template's class; the job's; a pod's own spec.priority as the API server set it")
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("mpi-master-0", 1000),
                        org.assertj.core.groups.Tuple.tuple("mpi-worker-0", 10),
                        org.assertj.core.groups.Tuple.tuple("mpi-worker-1", 7));
    }

    private void mpiPod(String task, int index, String className, Integer priority) {
        cache.onPodIntent(
                "ns/mpi",
                intent(
                        "ns",
                        "mpi",
                        createPod("mpi", task, index, "volcano", "1")
                                .setPriorityClassName(className)
                                .setPriority(priority)
                                .build()));
    }

    @Test
    void aJobOfAHighClassPreemptsOneOfALowClassOnlyBecauseOfTheirClasses() {
        cluster();
        job("low", "batch-low", "Running", 0);
        cache.onPodEvent("ns/low", podEvent("ns", "low", "low-w-0", "Running", "n1", false));
        job("high", "batch-high", "Inqueue", 1);

        assertThat(evicted(session(WITH_PREEMPT)))
                .as("no classes yet: equal priorities, no preemption")
                .isEmpty();

        priorityClass("batch-low", 10);
        priorityClass("batch-high", 1000);
        List<SchedulerDecision> decisions = session(WITH_PREEMPT);

        assertThat(evicted(decisions)).containsExactly("low-w-0");
        assertThat(decisions)
                .filteredOn(d -> d.getDecision() instanceof Evict)
                .singleElement()
                .satisfies(d ->
                        assertThat(((Evict) d.getDecision()).getReason()).contains("preempted by ns/high/high-w-0"));
    }

    @Test
    void aClassWhosePreemptionPolicyIsNeverPreemptsNoOneUntilItsPolicySaysOtherwise() {
        cluster();
        job("low", "batch-low", "Running", 0);
        cache.onPodEvent("ns/low", podEvent("ns", "low", "low-w-0", "Running", "n1", false));
        job("high", "batch-high", "Inqueue", 1);
        priorityClass("batch-low", 10);
        cache.onPriorityClass(
                "batch-high",
                Records.roundTrip(PriorityClass.newBuilder(priorityClass("batch-high", 1000, false))
                        .setPreemptionPolicy("Never")
                        .build()));

        assertThat(cache.snapshot().jobs())
                .flatExtracting(JobInfo::tasks)
                .filteredOn(t -> t.name().equals("high-w-0"))
                .singleElement()
                .satisfies(t -> assertThat(t.mayPreempt()).isFalse());
        assertThat(evicted(session(WITH_PREEMPT)))
                .as("its class's pods go first but take nobody's place")
                .isEmpty();

        // A class's policy is immutable in Kubernetes; deleted and created again without it, it preempts.
        cache.onPriorityClass("batch-high", null);
        priorityClass("batch-high", 1000);
        assertThat(evicted(session(WITH_PREEMPT))).containsExactly("low-w-0");
    }
}
