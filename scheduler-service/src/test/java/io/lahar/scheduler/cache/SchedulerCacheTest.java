package io.lahar.scheduler.cache;

import static io.lahar.scheduler.Records.createPod;
import static io.lahar.scheduler.Records.intent;
import static io.lahar.scheduler.Records.node;
import static io.lahar.scheduler.Records.podEvent;
import static io.lahar.scheduler.Records.podGroup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SessionResult;
import io.lahar.scheduler.Records;
import io.lahar.scheduler.loop.SessionDecisions;
import io.lahar.scheduler.mapping.MappingException;
import io.lahar.schema.Bind;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SchedulerCacheTest {

    private final SchedulerCache cache = new SchedulerCache(Set.of("volcano"));
    private final List<SchedulerDecision> written = new ArrayList<>();
    private long epoch = 1;

    private void gang(String job, int pods, String cpu, String scheduler) {
        cache.onPodGroup("ns/" + job, podGroup("ns", job, "q", pods, "Inqueue", written.size()));
        for (int i = 0; i < pods; i++) {
            cache.onPodIntent(
                    "ns/" + job,
                    intent("ns", job, createPod(job, "w", i, scheduler, cpu).build()));
        }
    }

    private SessionDecisions.Outcome session() {
        Snapshot s = cache.snapshot();
        SessionResult r = Scheduler.withDefaults().schedule(s);
        SessionDecisions.Outcome o = SessionDecisions.apply(cache, s, r, epoch, "s", Records.T0);
        written.addAll(o.decisions());
        return o;
    }

    private TaskInfo task(String job, String pod) {
        JobInfo j = cache.snapshot().jobs().stream()
                .filter(x -> x.name().equals(job))
                .findFirst()
                .orElseThrow();
        return j.tasks().stream().filter(t -> t.name().equals(pod)).findFirst().orElseThrow();
    }

    @Test
    void bindingsAreAssumedUntilPodEventsConfirmThemAndAGangThatDoesNotFitGetsItsReason() {
        cache.onNode("n1", node("n1", "2", "8Gi", Map.of(), List.of()));
        cache.onQueue("q", Records.queue("q", 1));
        gang("a", 2, "1", "volcano");

        SessionDecisions.Outcome first = session();
        assertThat(first.placements()).isEqualTo(2);
        assertThat(first.decisions())
                .filteredOn(d -> d.getDecision() instanceof Bind)
                .extracting(d -> ((Bind) d.getDecision()).getNode())
                .containsExactly("n1", "n1");
        assertThat(first.decisions())
                .filteredOn(d -> d.getDecision() instanceof PodGroupStatus)
                .singleElement()
                .satisfies(d -> {
                    assertThat(d.getJob()).isEqualTo("a");
                    assertThat(d.getPodGroup()).isEqualTo("a-pg");
                    assertThat(d.getEpoch()).isEqualTo(1);
                    assertThat(((PodGroupStatus) d.getDecision()).getPhase()).isEqualTo("Running");
                });
        assertThat(cache.unconfirmedBindings()).isEqualTo(2);
        assertThat(task("a", "a-w-0").status()).isEqualTo(TaskStatus.Binding);

        // Nothing changed: nothing to write.
        assertThat(session().decisions()).isEmpty();

        // An event from before the binding does not undo it; one with the node confirms it.
        cache.onPodEvent("ns/a", podEvent("ns", "a", "a-w-0", "Pending", null, false));
        assertThat(task("a", "a-w-0").status()).isEqualTo(TaskStatus.Binding);
        cache.onPodEvent("ns/a", podEvent("ns", "a", "a-w-0", "Running", "n1", false));
        assertThat(task("a", "a-w-0").status()).isEqualTo(TaskStatus.Running);
        assertThat(cache.unconfirmedBindings()).isEqualTo(1);

        // The node is full with assumed and confirmed pods: the next gang waits, with its reason.
        gang("b", 2, "1", "volcano");
        SessionDecisions.Outcome second = session();
        assertThat(second.placements()).isZero();
        assertThat(second.pendingByReason()).containsEntry("NotEnoughResources", 1);
        PodGroupStatus b = second.decisions().stream()
                .filter(d -> d.getJob().equals("b"))
                .map(d -> (PodGroupStatus) d.getDecision())
                .findFirst()
                .orElseThrow();
        assertThat(b.getPhase()).isNotEqualTo("Running");
        assertThat(b.getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getType()).isEqualTo("Unschedulable");
            assertThat(c.getReason()).isEqualTo("NotEnoughResources");
            assertThat(c.getMessage()).isNotBlank();
        });
    }

    @Test
    void aNewInstanceRebuildsTheAssumedBindingsFromTheDecisionsItReadsBack() {
        cache.onNode("n1", node("n1", "2", "8Gi", Map.of(), List.of()));
        cache.onQueue("q", Records.queue("q", 1));
        gang("a", 2, "1", "volcano");
        assertThat(session().placements()).isEqualTo(2);

        SchedulerCache next = new SchedulerCache(Set.of("volcano"));
        next.onNode("n1", node("n1", "2", "8Gi", Map.of(), List.of()));
        next.onQueue("q", Records.queue("q", 1));
        // The decisions topic may be read ahead of the intents: the bindings still hold.
        written.forEach(d -> next.onDecision("ns/" + d.getJob(), d));
        next.onPodGroup("ns/a", podGroup("ns", "a", "q", 2, "Inqueue", 0));
        for (int i = 0; i < 2; i++)
            next.onPodIntent(
                    "ns/a",
                    intent("ns", "a", createPod("a", "w", i, "volcano", "1").build()));
        next.onPodGroup("ns/b", podGroup("ns", "b", "q", 1, "Inqueue", 1));
        next.onPodIntent(
                "ns/b", intent("ns", "b", createPod("b", "w", 0, "volcano", "1").build()));

        assertThat(next.maxEpoch()).isEqualTo(1);
        assertThat(next.unconfirmedBindings()).isEqualTo(2);
        SessionResult r = Scheduler.withDefaults().schedule(next.snapshot());
        assertThat(r.bindings())
                .as("the node is taken by the predecessor's bindings")
                .isEmpty();
        assertThat(r.conditions().get("ns/b").reason()).isEqualTo("NotEnoughResources");
    }

    @Test
    void podsOfAnotherSchedulerAreNotPlacedButTheirNodesUsageCounts() {
        cache.onNode("n1", node("n1", "2", "8Gi", Map.of(), List.of()));
        cache.onQueue("q", Records.queue("q", 1));
        gang("other", 1, "1500m", "default-scheduler");
        cache.onPodEvent("ns/other", podEvent("ns", "other", "other-w-0", "Running", "n1", false));
        gang("mine", 1, "1", "volcano");

        Snapshot s = cache.snapshot();
        assertThat(s.jobs()).extracting(JobInfo::name).containsExactly("mine");
        assertThat(s.nodes().get(0).otherUsed().milliCpu()).isEqualTo(1500);
        assertThat(Scheduler.withDefaults().schedule(s).bindings()).isEmpty();
    }

    @Test
    void anotherSchedulersPodRepelsOursByItsAntiAffinity() {
        cache.onNode("n1", node("n1", "8", "8Gi", Map.of(), List.of()));
        cache.onNode("n2", node("n2", "8", "8Gi", Map.of(), List.of()));
        cache.onQueue("q", Records.queue("q", 1));
        cache.onPodGroup("ns/other", podGroup("ns", "other", "q", 1, "Inqueue", 0));
        cache.onPodIntent(
                "ns/other",
                intent(
                        "ns",
                        "other",
                        createPod("other", "w", 0, "default-scheduler", "1")
                                .setLabels(Map.of("app", "db"))
                                .setAffinity("""
                        {"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
                          {"labelSelector":{"matchLabels":{"app":"web"}},"topologyKey":"kubernetes.io/hostname"}]}}""")
                                .build()));
        cache.onPodEvent("ns/other", podEvent("ns", "other", "other-w-0", "Running", "n1", false));
        cache.onPodGroup("ns/mine", podGroup("ns", "mine", "q", 1, "Inqueue", 0));
        cache.onPodIntent(
                "ns/mine",
                intent(
                        "ns",
                        "mine",
                        createPod("mine", "w", 0, "volcano", "1")
                                .setLabels(Map.of("app", "web"))
                                .build()));

        Snapshot s = cache.snapshot();
        assertThat(s.nodes().get(0).foreignPods())
                .singleElement()
                .satisfies(f -> assertThat(f.spec().labels()).containsEntry("app", "db"));
        assertThat(Scheduler.withDefaults().schedule(s).bindings())
                .singleElement()
                .satisfies(b -> assertThat(b.node()).isEqualTo("n2"));
    }

    @Test
    void deletedPodsHoldTheirNodeUntilTheyAreGoneAndTombstonesRemove() {
        cache.onNode("n1", node("n1", "2", "8Gi", Map.of(), List.of()));
        gang("a", 1, "1", "volcano");
        cache.onPodEvent("ns/a", podEvent("ns", "a", "a-w-0", "Running", "n1", false));
        cache.onPodIntent("ns/a", Records.deletePod("ns", "a", "a-w-0"));
        assertThat(task("a", "a-w-0").status()).isEqualTo(TaskStatus.Releasing);
        cache.onPodEvent("ns/a", podEvent("ns", "a", "a-w-0", "Running", "n1", true));
        assertThat(cache.snapshot().jobs().get(0).tasks()).isEmpty();

        cache.onPodGroup("ns/a", null);
        cache.onNode("n1", null);
        assertThat(cache.snapshot().jobs()).isEmpty();
        assertThat(cache.snapshot().nodes()).isEmpty();
    }

    @Test
    void theDecidedPhaseWinsOverTheLaggingPodGroupRecordCompletedIncluded() {
        cache.onPodGroup("ns/a", podGroup("ns", "a", "q", 1, "Pending", 0));
        assertThat(cache.snapshot().jobs().get(0).phase()).isEqualTo(PodGroupPhase.Pending);
        cache.recordStatus("ns/a", new PodGroupStatus("Inqueue", List.of(), 0, 0, 0));
        assertThat(cache.snapshot().jobs().get(0).phase()).isEqualTo(PodGroupPhase.Inqueue);
        cache.recordStatus("ns/a", new PodGroupStatus("Completed", List.of(), 0, 1, 0));
        cache.onPodGroup("ns/a", podGroup("ns", "a", "q", 1, "Completed", 0));
        assertThat(cache.snapshot().jobs().get(0).phase()).isEqualTo(PodGroupPhase.Completed);
        // Not final: a task created again makes the next session decide Running, and the record echoing
        // the earlier Completed does not bring it back.
        cache.recordStatus("ns/a", new PodGroupStatus("Running", List.of(), 1, 0, 0));
        assertThat(cache.snapshot().jobs().get(0).phase()).isEqualTo(PodGroupPhase.Running);
    }

    /**
     * A restart deletes the pod group and creates it again under the same key while old pods may
     * still be known: the phase decided for the old group must not be taken for the new one's —
     * an "Inqueue" carried over would keep the new group from being admitted (nothing changes, so
     * no decision would tell the job controller to create its pods).
     */
    @Test
    void aPodGroupCreatedAgainAfterATombstoneQueuesAfresh() {
        cache.onNode("n1", node("n1", "2", "8Gi", Map.of(), List.of()));
        gang("a", 1, "1", "volcano");
        cache.recordStatus("ns/a", new PodGroupStatus("Inqueue", List.of(), 0, 0, 0));
        cache.onPodEvent("ns/a", podEvent("ns", "a", "a-w-0", "Running", "n1", false));

        cache.onPodGroup("ns/a", null);
        assertThat(cache.lastStatus("ns/a")).isNull();
        cache.onPodGroup("ns/a", podGroup("ns", "a", "q", 1, "Pending", 1));
        assertThat(cache.snapshot().jobs().get(0).phase()).isEqualTo(PodGroupPhase.Pending);
    }

    /**
     * A successor catching up reads the topics in any order: the decision that admitted the group
     * before the job restarted can come after the record of the group created again (the tombstone
     * between them compacted away). It was made for the earlier job version: the new group queues
     * afresh, and the next session writes its own decision, for the new version.
     */
    @Test
    void aDecisionReadBackForAnEarlierIncarnationOfTheGroupIsNotTakenForTheNewOne() {
        cache.onQueue("q", Records.queue("q", 1));
        cache.onNode("n1", node("n1", "2", "8Gi", Map.of(), List.of()));
        SchedulerDecision admittedBeforeTheRestart = SchedulerDecision.newBuilder()
                .setNamespace("ns")
                .setJob("a")
                .setPodGroup("a-pg")
                .setEpoch(1)
                .setTime(Records.T0)
                .setDecision(new PodGroupStatus("Running", List.of(), 1, 0, 0))
                .setPodGroupVersion(0)
                .build();
        cache.onPodGroup(
                "ns/a",
                PodGroup.newBuilder(podGroup("ns", "a", "q", 1, "Pending", 0))
                        .setJobVersion(1)
                        .build());
        cache.onDecision("ns/a", admittedBeforeTheRestart);

        assertThat(cache.lastStatus("ns/a")).isNull();
        assertThat(cache.snapshot().jobs().get(0).phase()).isEqualTo(PodGroupPhase.Pending);
        SessionDecisions.Outcome o = session();
        SchedulerDecision status = o.decisions().stream()
                .filter(d -> d.getDecision() instanceof PodGroupStatus)
                .findFirst()
                .orElseThrow();
        assertThat(((PodGroupStatus) status.getDecision()).getPhase()).isEqualTo("Inqueue");
        assertThat(status.getPodGroupVersion()).isEqualTo(1);
        assertThat(cache.lastStatus("ns/a")).isNotNull();

        // A decision for the group's own version (or one written before versions were) counts.
        cache.onDecision(
                "ns/a",
                SchedulerDecision.newBuilder(admittedBeforeTheRestart)
                        .setPodGroupVersion(1)
                        .build());
        assertThat(cache.snapshot().jobs().get(0).phase()).isEqualTo(PodGroupPhase.Running);
        cache.onDecision(
                "ns/a",
                SchedulerDecision.newBuilder(admittedBeforeTheRestart)
                        .setPodGroupVersion(null)
                        .setDecision(new PodGroupStatus("Inqueue", List.of(), 0, 0, 0))
                        .build());
        assertThat(cache.snapshot().jobs().get(0).phase()).isEqualTo(PodGroupPhase.Inqueue);
    }

    @Test
    void aBadRecordChangesNothing() {
        cache.onNode("n1", node("n1", "2", "8Gi", Map.of(), List.of()));
        assertThatThrownBy(() -> cache.onNode("n1", node("n1", "two", "8Gi", Map.of(), List.of())))
                .isInstanceOf(MappingException.class);
        assertThat(cache.snapshot().nodes().get(0).allocatable().milliCpu()).isEqualTo(2000);
    }
}
