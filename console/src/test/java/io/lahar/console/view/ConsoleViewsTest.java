package io.lahar.console.view;

import static io.lahar.console.view.Fixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.PodGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConsoleViewsTest {

    private final List<String> counted = new ArrayList<>();
    private final ConsoleViews views =
            new ConsoleViews(new ConsoleViews.Limits(3, 100, 1000, 2, 5), new ConsoleViews.Counters() {
                @Override
                public void commandResult(String kind, boolean accepted) {
                    counted.add("result " + kind + " " + accepted);
                }

                @Override
                public void deadLetter(String topic, String processor) {
                    counted.add("dead " + topic + " " + processor);
                }

                @Override
                public void undecodable(String topic) {
                    counted.add("undecodable " + topic);
                }

                @Override
                public void jobScheduled(long millis) {
                    counted.add("scheduled " + millis);
                }

                @Override
                public void jobEntered(String queue, String phase) {
                    counted.add("entered " + queue + " " + phase);
                }
            });
    private long offset;

    private void put(String topic, String key, Object value) {
        views.apply(List.of(new ConsoleViews.Input(topic, 0, offset++, T0.toEpochMilli(), key, value, null)));
    }

    private void garbage(String topic, String key, long at) {
        views.apply(List.of(new ConsoleViews.Input(
                topic, 1, at, T0.toEpochMilli(), key, null, "SerializationException bad magic")));
    }

    private static JobsView.Query query(
            String ns, String queue, String phase, String text, String sort, int offset, int limit) {
        return new JobsView.Query(ns, queue, phase, text, sort, offset, limit);
    }

    @Test
    void jobsAreFilteredSortedAndPagedAndATombstoneRemovesOne() {
        for (int i = 0; i < 30; i++) {
            String phase = i % 3 == 0 ? "Running" : i % 3 == 1 ? "Pending" : "Completed";
            put(
                    "lahar.job-status",
                    "a/job-" + i,
                    Fixtures.job(
                            "a", "job-" + i, i < 10 ? "q1" : "q2", phase, T0.plusSeconds(i), T0.plusSeconds(100 + i)));
        }
        put("lahar.job-status", "b/other", Fixtures.job("b", "other", "q1", "Failed", T0, T0.plusSeconds(1)));

        JobsView.Page all = views.jobs(query(null, null, null, null, null, 0, 10));
        assertThat(all.total()).isEqualTo(31);
        assertThat(all.matched()).isEqualTo(31);
        assertThat(all.items()).extracting(JobRow::name).startsWith("job-29", "job-28"); // newest first
        assertThat(all.namespaces()).containsEntry("a", 30).containsEntry("b", 1);
        assertThat(all.phases()).containsEntry("Failed", 1).containsEntry("Running", 10);

        JobsView.Page running = views.jobs(query("a", "q2", "Running", null, "name", 0, 100));
        assertThat(running.items())
                .extracting(JobRow::name)
                .containsExactly("job-12", "job-15", "job-18", "job-21", "job-24", "job-27");
        assertThat(views.jobs(query(null, null, null, "insufficient", null, 0, 100))
                        .matched())
                .isEqualTo(10);
        assertThat(views.jobs(query(null, null, null, null, "oldest", 28, 10)).items())
                .extracting(JobRow::name)
                .containsExactly("job-27", "job-28", "job-29");

        put("lahar.job-status", "b/other", null);
        assertThat(views.jobs(query("b", null, null, null, null, 0, 10)).matched())
                .isZero();
        assertThat(views.job("b/other")).isNull();
    }

    @Test
    void eachPhaseAJobEntersIsCountedOnceForItsQueue() {
        put("lahar.job-status", "a/j", Fixtures.job("a", "j", "q1", "Pending", T0, T0));
        put("lahar.job-status", "a/j", Fixtures.job("a", "j", "q1", "Pending", T0, T0.plusSeconds(1)));
        put("lahar.job-status", "a/j", Fixtures.job("a", "j", "q1", "Running", T0, T0.plusSeconds(2)));
        put("lahar.job-status", "a/j", Fixtures.job("a", "j", "q1", "Completed", T0, T0.plusSeconds(3)));
        put("lahar.job-status", "a/k", Fixtures.job("a", "k", "q2", "Failed", T0, T0.plusSeconds(3)));
        put("lahar.job-status", "a/j", null);
        put("lahar.job-status", "a/j", Fixtures.job("a", "j", "q1", "Pending", T0.plusSeconds(9), T0.plusSeconds(9)));
        assertThat(counted)
                .filteredOn(c -> c.startsWith("entered"))
                .containsExactly(
                        "entered q1 Pending",
                        "entered q1 Running",
                        "entered q1 Completed",
                        "entered q2 Failed",
                        "entered q1 Pending");
    }

    @Test
    void aPageIsTheSameWhetherAllRowsAreSortedOrOnlyTheFirst() {
        List<JobRow> rows = new ArrayList<>();
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 1000; i++) {
            rows.add(JobRow.of(
                    "a/j" + i,
                    Fixtures.job(
                            "a", "j" + i, "q" + random.nextInt(5), "Running", T0.plusSeconds(random.nextInt(100)), T0),
                    JobSpecFacts.NONE));
        }
        for (String sort : new String[] {null, "name", "queue", "oldest"}) {
            List<JobRow> all = new ArrayList<>(rows);
            all.sort(JobsView.order(sort));
            assertThat(JobsView.first(new ArrayList<>(rows), 60, JobsView.order(sort)))
                    .isEqualTo(all.subList(0, 60));
        }
    }

    @Test
    void aJobsRowDerivesReplicasMaxRetryItsFlowAndHowLongItRuns() {
        put("lahar.job-status", "a/j", Fixtures.job("a", "j", "q", "Running", T0, T0.plusSeconds(9), 4, "my-flow"));
        JobRow row = views.job("a/j").row();
        assertThat(row.replicas()).isEqualTo(5);
        assertThat(row.maxRetry()).isEqualTo(3);
        assertThat(row.flow()).isEqualTo("my-flow");
        assertThat(row.created()).isEqualTo(T0.toEpochMilli());
        assertThat(row.runningSince())
                .as("the Running condition's time")
                .isEqualTo(T0.plusSeconds(5).toEpochMilli());
        assertThat(row.runningDuration()).isNull();

        put("lahar.job-status", "a/j", Fixtures.job("a", "j", "q", "Completed", T0, T0.plusSeconds(60), 4, "my-flow"));
        row = views.job("a/j").row();
        assertThat(row.runningSince()).isNull();
        assertThat(row.runningDuration()).isEqualTo(55_000L);
    }

    @Test
    void aJobsPageHasItsLatestTransitionsPodsAndPodGroup() {
        put("lahar.job-status", "a/j", Fixtures.job("a", "j", "q", "Running", T0, T0));
        for (int i = 0; i < 5; i++) {
            put(
                    "lahar.job-transitions",
                    "a/j",
                    Fixtures.transition(
                            "a", "j", "Pending", "Running", "PodRunning" + i, null, null, 40 + i, T0.plusSeconds(i)));
        }
        put(
                "lahar.job-transitions",
                "a/j",
                Fixtures.transition(
                        "a",
                        "j",
                        "Running",
                        "Restarting",
                        "PodFailed",
                        "RestartJob",
                        "spec.policies[0]",
                        77,
                        T0.plusSeconds(9)));
        put("lahar.pod-events", "a/j", Fixtures.pod("a", "j", "worker", 1, "Running", "n1", null, T0));
        put("lahar.pod-events", "a/j", Fixtures.pod("a", "j", "worker", 0, "Failed", "n2", 137, T0));
        put("lahar.pod-groups", "a/j", Fixtures.podGroup("a", "j", "q", "Running", null));

        JobDetail d = views.job("a/j");
        assertThat(d.transitions()).as("at most 3 per job, the latest").hasSize(3);
        TransitionsView.TransitionRow last = d.transitions().get(2);
        assertThat(last.event()).isEqualTo("PodFailed");
        assertThat(last.action()).isEqualTo("RestartJob");
        assertThat(last.policy()).isEqualTo("spec.policies[0]");
        assertThat(last.source()).isEqualTo("lahar.pod-events/2@77");
        assertThat(last.position()).startsWith("lahar.job-transitions/0@");
        assertThat(d.pods()).extracting(PodsView.PodRow::pod).containsExactly("j-worker-0", "j-worker-1");
        assertThat(d.pods().get(0).exitCodes()).containsExactly("main=137 (Error)");
        assertThat(d.pods().get(0).node()).isEqualTo("n2");
        assertThat(d.pods().get(0).restarts()).isEqualTo(1);
        assertThat(d.podGroup().phase()).isEqualTo("Running");
        assertThat(d.status().taskStatusCount()).containsEntry("worker", Map.of("Running", 2));
    }

    @Test
    void aNodeHoldsTheRequestsOfTheUnfinishedPodsBoundToIt() {
        put("lahar.nodes", "n1", Fixtures.node("n1", "8", "32Gi"));
        put("lahar.job-status", "a/j", Fixtures.job("a", "j", "q", "Running", T0, T0));
        put("lahar.pod-events", "a/j", Fixtures.pod("a", "j", "ps", 0, "Running", "n1", null, T0));
        put("lahar.pod-events", "a/j", Fixtures.pod("a", "j", "worker", 0, "Running", "n1", null, T0));
        put("lahar.pod-events", "a/j", Fixtures.pod("a", "j", "worker", 1, "Succeeded", "n1", 0, T0));
        put("lahar.pod-events", "a/j", Fixtures.pod("a", "j", "worker", 2, "Running", "n9", null, T0));

        List<NodesView.NodeRow> nodes = views.nodes();
        NodesView.NodeRow n1 = nodes.get(0);
        assertThat(n1.name()).isEqualTo("n1");
        assertThat(n1.allocated().get("cpu").value()).isEqualTo(1.5);
        assertThat(n1.allocated().get("memory").text()).isEqualTo("3 GiB");
        assertThat(n1.allocatable().get("memory").text()).isEqualTo("32 GiB");
        assertThat(n1.pods()).extracting(NodesView.NodePod::pod).containsExactly("j-ps-0", "j-worker-0");
        assertThat(n1.taints()).containsExactly("gpu=true:NoSchedule");
        assertThat(nodes.get(1).name()).isEqualTo("n9");
        assertThat(nodes.get(1).known()).as("no lahar.nodes record").isFalse();
    }

    @Test
    void aQueueJoinsItsConfigurationItsStatusItsJobsAndWhyItsGroupsWait() {
        put("lahar.queues", "root", Fixtures.queue("root", null, 1, Map.of()));
        put("lahar.queues", "q", Fixtures.queue("q", "root", 3, Map.of("cpu", "36", "memory", "128Gi")));
        put(
                "lahar.queue-status",
                "q",
                Fixtures.queueStatus(
                        "q", 2, Map.of("cpu", "28400m", "ephemeral-storage", "429496729600"), Map.of("cpu", "12")));
        put("lahar.job-status", "a/j", Fixtures.job("a", "j", "q", "Pending", T0, T0));
        put("lahar.pod-groups", "a/j", Fixtures.podGroup("a", "j", "q", "Pending", "NotEnoughResources"));

        QueuesView.QueueRow q = views.queues().stream()
                .filter(r -> r.name().equals("q"))
                .findFirst()
                .orElseThrow();
        assertThat(q.parent()).isEqualTo("root");
        assertThat(q.weight()).isEqualTo(3);
        assertThat(q.capability().get("cpu").text()).isEqualTo("36");
        assertThat(q.allocated().get("cpu").text()).isEqualTo("28.4");
        assertThat(q.allocated().get("ephemeral-storage").text()).isEqualTo("400 GiB");
        assertThat(q.deserved().get("cpu").value()).isEqualTo(12.0);
        assertThat(q.guarantee().get("cpu").value()).isEqualTo(1.0);
        assertThat(q.podGroups()).containsEntry("Running", 2).containsEntry("Pending", 1);
        assertThat(q.jobs()).containsEntry("Pending", 1);
        assertThat(q.unschedulable()).containsEntry("NotEnoughResources", 1);
    }

    @Test
    void aFlowIsADagWithEachJobsPhase() {
        put("lahar.flow-status", "a/f", Fixtures.flow("a", "f", "Running"));
        FlowsView.FlowDetail d = views.flow("a/f");
        assertThat(d.nodes()).extracting(FlowsView.FlowNode::name).containsExactly("a", "b", "c", "d", "e");
        assertThat(d.nodes())
                .extracting(FlowsView.FlowNode::phase)
                .containsExactly("Completed", "Running", "Waiting", "Waiting", "Waiting");
        assertThat(d.nodes().get(4).targets()).containsExactly("c", "d");
        assertThat(d.row().completed()).isEqualTo(1);
        put("lahar.flow-status", "a/f", null);
        assertThat(views.flow("a/f")).isNull();
    }

    @Test
    void anUndecodableStatusIsShownWithTheDeadLetterReasonWhicheverComesFirst() {
        garbage("lahar.job-status", "a/bad", 7);
        JobRow row = views.job("a/bad").row();
        assertThat(row.phase()).isEqualTo("Undecodable");
        assertThat(row.error()).contains("bad magic").doesNotContain("dead letter");

        put(
                "lahar.dead-letters",
                "a/bad",
                Fixtures.deadLetter("lahar.job-status", 1, 7, "a/bad", "not Avro: magic byte 120"));
        assertThat(views.job("a/bad").row().error()).contains("dead letter: not Avro: magic byte 120");

        put("lahar.dead-letters", "a/x", Fixtures.deadLetter("lahar.pod-events", 1, 9, "a/x", "truncated record"));
        garbage("lahar.pod-events", "a/x", 9);
        ConsoleViews.DeadLetters letters = views.deadLetters();
        assertThat(letters.letters())
                .as("newest first, at most 2")
                .extracting(DeadLettersView.DeadLetterRow::error)
                .containsExactly("truncated record", "not Avro: magic byte 120");
        assertThat(letters.undecodable().get(0).deadLetter()).isEqualTo("truncated record");
        assertThat(letters.undecodable().get(0).key()).isEqualTo("a/x");
        assertThat(counted).contains("undecodable lahar.job-status", "dead lahar.pod-events streams-app");
    }

    @Test
    void aRecordTheViewsCannotFoldIsShownAndTheNextOnesAreApplied() {
        // A value of the wrong class on a topic: no writer sends it, and it must not stop the feed.
        views.apply(List.of(
                new ConsoleViews.Input("lahar.nodes", 0, 1, 0, "n1", Fixtures.queue("q", null, 1, Map.of()), null),
                new ConsoleViews.Input("lahar.nodes", 0, 2, 0, "n2", Fixtures.node("n2", "4", "8Gi"), null)));
        assertThat(views.nodes()).extracting(NodesView.NodeRow::name).containsExactly("n2");
        assertThat(views.deadLetters().undecodable())
                .singleElement()
                .satisfies(u -> assertThat(u.error()).startsWith("the console could not read it"));
    }

    @Test
    void changesNameTheKeysUntilThereAreTooMany() {
        put("lahar.job-status", "a/1", Fixtures.job("a", "1", "q", "Running", T0, T0));
        put("lahar.flow-status", "a/f", Fixtures.flow("a", "f", "Running"));
        Map<String, Set<String>> changes = views.drainChanges();
        assertThat(changes.get(Changes.JOBS)).containsExactly("a/1");
        assertThat(changes.get(Changes.QUEUES)).containsExactly(Changes.ALL);
        assertThat(changes.get(Changes.FLOWS)).containsExactly("a/f");
        assertThat(views.drainChanges()).isEmpty();
        for (int i = 0; i < 6; i++) {
            put(
                    "lahar.job-transitions",
                    "a/" + i,
                    Fixtures.transition("a", "" + i, null, "Pending", "JobSubmitted", null, null, i, T0));
        }
        assertThat(views.drainChanges().get(Changes.JOBS)).containsExactly(Changes.ALL);
    }

    @Test
    void aPodGroupScheduledWholeCountsItsLatencyOncePerVersion() {
        PodGroup pending = Fixtures.podGroup("a", "j", "q", "Pending", null);
        put("lahar.pod-groups", "a/j", pending);
        PodGroup running = PodGroup.newBuilder(Fixtures.podGroup("a", "j", "q", "Running", null))
                .setTime(T0.plusMillis(1500))
                .build();
        put("lahar.pod-groups", "a/j", running);
        put("lahar.pod-groups", "a/j", running);
        assertThat(counted).containsExactly("scheduled 1500");
        put(
                "lahar.pod-groups",
                "a/j",
                PodGroup.newBuilder(running)
                        .setJobVersion(1)
                        .setTime(T0.plusMillis(4000))
                        .build());
        assertThat(counted).containsExactly("scheduled 1500", "scheduled 4000");
    }

    @Test
    void commandResultsAreCounted() {
        put(
                "lahar.command-results",
                "a/j",
                io.lahar.schema.CommandResult.newBuilder()
                        .setRequestId("r")
                        .setNamespace("a")
                        .setName("j")
                        .setKind("SubmitJob")
                        .setAccepted(false)
                        .setViolations(List.of())
                        .setTime(T0)
                        .build());
        assertThat(counted).containsExactly("result SubmitJob false");
    }
}
