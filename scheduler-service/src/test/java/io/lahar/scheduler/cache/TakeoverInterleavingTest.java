package io.lahar.scheduler.cache;

import static io.lahar.scheduler.Records.createPod;
import static io.lahar.scheduler.Records.intent;
import static io.lahar.scheduler.Records.podEvent;
import static io.lahar.scheduler.Records.podGroup;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.scheduler.Records;
import io.lahar.scheduler.loop.SessionDecisions;
import io.lahar.schema.Bind;
import io.lahar.schema.Node;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.SchedulerDecision;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * A takeover, whatever the order in which the new instance reads the topics: records of one topic
 * keep their order (one partition each here), records of different topics interleave at random,
 * as a consumer of several topics sees them. The new instance never binds a pod again, and no node
 * ends up holding more than its allocatable.
 */
class TakeoverInterleavingTest {

    private record In(String topic, String key, Object value) {}

    private static final Scheduler SCHEDULER = Scheduler.withDefaults();

    @Property(tries = 150)
    void aSuccessorNeverRebindsAPodNorOvercommitsANode(@ForAll long seed) {
        Random rnd = new Random(seed);
        Map<String, Long> allocatable = new HashMap<>();
        Map<String, Long> podCpu = new HashMap<>();
        List<In> nodes = new ArrayList<>();
        List<In> groups = new ArrayList<>();
        List<In> intents = new ArrayList<>();
        List<In> events = new ArrayList<>();
        int nodeCount = 1 + rnd.nextInt(3);
        for (int i = 0; i < nodeCount; i++) {
            int cpu = 2 + rnd.nextInt(6);
            allocatable.put("n" + i, cpu * 1000L);
            nodes.add(new In(
                    "nodes", "n" + i, Records.node("n" + i, Integer.toString(cpu), "64Gi", Map.of(), List.of())));
        }
        int gangs = 1 + rnd.nextInt(5);
        for (int g = 0; g < gangs; g++) {
            String job = "j" + g;
            int pods = 1 + rnd.nextInt(4);
            groups.add(new In("groups", "ns/" + job, podGroup("ns", job, "default", pods, "Inqueue", g)));
            for (int p = 0; p < pods; p++) {
                int cpu = 1 + rnd.nextInt(3);
                podCpu.put(job + "-w-" + p, cpu * 1000L);
                intents.add(new In(
                        "intents",
                        "ns/" + job,
                        intent(
                                "ns",
                                job,
                                createPod(job, "w", p, "volcano", Integer.toString(cpu))
                                        .build())));
            }
        }

        // The first instance reads everything in order, decides, sees some pods start and finish,
        // and decides again.
        SchedulerCache first = new SchedulerCache(Set.of("volcano"));
        List<In> log = new ArrayList<>(nodes);
        log.addAll(groups);
        log.addAll(intents);
        log.forEach(r -> fold(first, r));
        List<SchedulerDecision> decisions = new ArrayList<>(session(first, 1));
        Set<String> finished = new HashSet<>();
        for (SchedulerDecision d : decisions) {
            if (!(d.getDecision() instanceof Bind b) || rnd.nextBoolean()) continue;
            String key = "ns/" + d.getJob();
            events.add(new In("events", key, podEvent("ns", d.getJob(), b.getPod(), "Running", b.getNode(), false)));
            if (rnd.nextInt(3) == 0) {
                events.add(
                        new In("events", key, podEvent("ns", d.getJob(), b.getPod(), "Succeeded", b.getNode(), false)));
                finished.add(b.getPod());
            }
        }
        events.forEach(r -> fold(first, r));
        decisions.addAll(session(first, 1));

        // The successor reads the same log, topics interleaved at random, then decides.
        List<In> decided = decisions.stream()
                .map(d -> new In("decisions", "ns/" + d.getJob(), d))
                .toList();
        SchedulerCache second = new SchedulerCache(Set.of("volcano"));
        interleave(rnd, List.of(nodes, groups, intents, events, decided)).forEach(r -> fold(second, r));
        assertThat(second.maxEpoch()).isEqualTo(1);
        decisions.addAll(session(second, 2));

        List<Bind> binds = decisions.stream()
                .filter(d -> d.getDecision() instanceof Bind)
                .map(d -> (Bind) d.getDecision())
                .toList();
        assertThat(binds).extracting(Bind::getPod).doesNotHaveDuplicates();
        Map<String, Long> used = new HashMap<>();
        for (Bind b : binds) {
            if (!finished.contains(b.getPod())) used.merge(b.getNode(), podCpu.get(b.getPod()), Long::sum);
        }
        used.forEach(
                (node, cpu) -> assertThat(cpu).as("cpu held on %s", node).isLessThanOrEqualTo(allocatable.get(node)));
    }

    private static List<SchedulerDecision> session(SchedulerCache cache, long epoch) {
        Snapshot s = cache.snapshot();
        return SessionDecisions.apply(cache, s, SCHEDULER.schedule(s), epoch, epoch + "-1", Records.T0)
                .decisions();
    }

    private static void fold(SchedulerCache cache, In r) {
        switch (r.value()) {
            case Node n -> cache.onNode(r.key(), n);
            case PodGroup g -> cache.onPodGroup(r.key(), g);
            case PodIntent i -> cache.onPodIntent(r.key(), i);
            case PodEvent e -> cache.onPodEvent(r.key(), e);
            case SchedulerDecision d -> cache.onDecision(r.key(), d);
            default -> throw new IllegalArgumentException(r.topic());
        }
    }

    /** Merges the topics at random, each topic's records staying in their order. */
    private static List<In> interleave(Random rnd, List<List<In>> topics) {
        List<In> out = new ArrayList<>();
        int[] next = new int[topics.size()];
        while (true) {
            List<Integer> open = new ArrayList<>();
            for (int t = 0; t < topics.size(); t++) {
                if (next[t] < topics.get(t).size()) open.add(t);
            }
            if (open.isEmpty()) return out;
            int t = open.get(rnd.nextInt(open.size()));
            out.add(topics.get(t).get(next[t]++));
        }
    }
}
