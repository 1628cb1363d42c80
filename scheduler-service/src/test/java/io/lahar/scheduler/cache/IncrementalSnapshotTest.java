package io.lahar.scheduler.cache;

import static io.lahar.scheduler.Records.createPod;
import static io.lahar.scheduler.Records.intent;
import static io.lahar.scheduler.Records.node;
import static io.lahar.scheduler.Records.podEvent;
import static io.lahar.scheduler.Records.podGroup;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.scheduler.Records;
import io.lahar.schema.Bind;
import io.lahar.schema.CreatePod;
import io.lahar.schema.DeletePod;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The cache keeps what it parsed and the gangs it built between sessions, and counts unconfirmed
 * bindings as they come and go: whatever the order of records, a cache that took a snapshot after
 * every record must show exactly what a new cache folding the same records shows, and its counter
 * must agree with a walk over every pod.
 */
class IncrementalSnapshotTest {

    private static final List<String> NODES = List.of("n1", "n2", "n3");
    private static final List<String> JOBS = List.of("a", "b", "c");
    private static final List<String> PHASES = List.of("Pending", "Inqueue", "Running", "Completed");
    private static final List<String> POD_PHASES = List.of("Pending", "Running", "Succeeded", "Failed", "Unknown");
    private static final List<String> CLASSES = List.of("low", "high");

    @Test
    void aSnapshotAfterEveryRecordEqualsOneFromAllTheRecordsAtOnce() {
        for (long seed = 1; seed <= 40; seed++) {
            Random random = new Random(seed);
            List<Consumer<SchedulerCache>> records = new ArrayList<>();
            SchedulerCache incremental = cache();
            for (int step = 0; step < 120; step++) {
                Consumer<SchedulerCache> record = randomRecord(random);
                records.add(record);
                record.accept(incremental);
                SchedulerCache fresh = cache();
                records.forEach(r -> r.accept(fresh));
                Snapshot expected = fresh.snapshot();
                assertThat(incremental.snapshot())
                        .as("seed %d step %d", seed, step)
                        .isEqualTo(expected);
                assertThat(incremental.unconfirmedBindings())
                        .as("seed %d step %d", seed, step)
                        .isEqualTo(incremental.countUnconfirmedBindings())
                        .isEqualTo(fresh.unconfirmedBindings());
            }
        }
    }

    @Test
    void theCounterFollowsBindingsThroughConfirmationDeletionAndTheirPodGroupsTombstone() {
        SchedulerCache cache = cache();
        cache.onNode("n1", node("n1", "8", "8Gi", Map.of(), List.of()));
        cache.onPodGroup("ns/a", podGroup("ns", "a", "q", 3, "Inqueue", 0));
        for (int i = 0; i < 3; i++) {
            cache.onPodIntent(
                    "ns/a",
                    intent("ns", "a", createPod("a", "w", i, "volcano", "1").build()));
            cache.assumeBinding("ns/a", "a-w-" + i, "n1", 0);
        }
        cache.assumeBinding("ns/a", "a-w-0", "n1", 0); // the decision read back: no second count
        assertThat(cache.unconfirmedBindings()).isEqualTo(3);
        cache.onPodEvent("ns/a", podEvent("ns", "a", "a-w-0", "Running", "n1", false));
        assertThat(cache.unconfirmedBindings()).isEqualTo(2);
        cache.onPodEvent("ns/a", podEvent("ns", "a", "a-w-1", "Pending", null, true));
        assertThat(cache.unconfirmedBindings()).isEqualTo(1);
        cache.assumeEviction("ns/a", "a-w-2");
        assertThat(cache.unconfirmedBindings()).isZero();
        assertThat(cache.snapshot().jobs().get(0).tasks())
                .extracting(t -> t.status())
                .containsExactly(TaskStatus.Running, TaskStatus.Releasing);
    }

    private static SchedulerCache cache() {
        return new SchedulerCache(Set.of("volcano"));
    }

    private static Consumer<SchedulerCache> randomRecord(Random random) {
        String job = pick(random, JOBS);
        String key = "ns/" + job;
        String pod = job + "-w-" + random.nextInt(4);
        int version = random.nextInt(2);
        String node = pick(random, NODES);
        return switch (random.nextInt(12)) {
            case 0 ->
                random.nextInt(4) == 0
                        ? c -> c.onNode(node, null)
                        : withNode(node, String.valueOf(2 + random.nextInt(6)), random.nextBoolean());
            case 1 -> {
                if (random.nextInt(4) == 0) yield c -> c.onPodGroup(key, null);
                PodGroup g = podGroup("ns", job, "q", 1 + random.nextInt(3), pick(random, PHASES), random.nextInt(5));
                g.getSpec().setPriority(random.nextInt(3) * 10);
                g.getSpec().setPriorityClassName(className(random));
                yield c -> c.onPodGroup(key, g);
            }
            case 2, 3 -> {
                CreatePod.Builder b = createPod(
                                job,
                                "w",
                                Integer.parseInt(pod.substring(pod.lastIndexOf('-') + 1)),
                                random.nextInt(4) == 0 ? "default-scheduler" : "volcano",
                                (1 + random.nextInt(3)) + "")
                        .setJobVersion(version);
                if (random.nextBoolean()) b.setPriority(random.nextInt(100));
                b.setPriorityClassName(className(random));
                CreatePod c = b.build();
                yield cache -> cache.onPodIntent(key, intent("ns", job, c));
            }
            case 4 -> {
                DeletePod d = DeletePod.newBuilder()
                        .setPod(pod)
                        .setJobVersion(version)
                        .setReason("test")
                        .build();
                yield c -> c.onPodIntent(key, intent("ns", job, d));
            }
            case 5, 6 -> {
                PodEvent e = PodEvent.newBuilder(podEvent(
                                "ns",
                                job,
                                pod,
                                pick(random, POD_PHASES),
                                random.nextBoolean() ? node : null,
                                random.nextInt(5) == 0))
                        .setJobVersion(version)
                        .build();
                yield c -> c.onPodEvent(key, e);
            }
            case 7, 8 -> c -> c.assumeBinding(key, pod, node, version);
            case 9 -> c -> c.assumeEviction(key, pod);
            case 11 -> {
                // A class created, changed or deleted re-resolves the gangs built before it.
                String name = pick(random, CLASSES);
                if (random.nextInt(4) == 0) yield c -> c.onPriorityClass(name, null);
                io.lahar.schema.PriorityClass pc = io.lahar.schema.PriorityClass.newBuilder()
                        .setName(name)
                        .setValue(random.nextInt(3) * 100)
                        .setGlobalDefault(random.nextInt(3) == 0)
                        .setTime(Records.T0)
                        .build();
                yield c -> c.onPriorityClass(name, pc);
            }
            default -> {
                PodGroupStatus s = new PodGroupStatus(pick(random, PHASES), List.of(), random.nextInt(3), 0, 0);
                SchedulerDecision d = SchedulerDecision.newBuilder()
                        .setNamespace("ns")
                        .setJob(job)
                        .setPodGroup(job + "-pg")
                        .setEpoch(1)
                        .setSession("s")
                        .setTime(Records.T0)
                        .setDecision(random.nextBoolean() ? s : new Bind(pod, node, "allocate", version))
                        .build();
                yield c -> c.onDecision(key, d);
            }
        };
    }

    private static Consumer<SchedulerCache> withNode(String name, String cpu, boolean schedulable) {
        var n = node(name, cpu, "16Gi", Map.of(), List.of());
        n.setUnschedulable(!schedulable);
        return c -> c.onNode(name, n);
    }

    /** A class of {@link #CLASSES}, or none. */
    private static String className(Random random) {
        int i = random.nextInt(CLASSES.size() + 1);
        return i == CLASSES.size() ? null : CLASSES.get(i);
    }

    private static <T> T pick(Random random, List<T> from) {
        return from.get(random.nextInt(from.size()));
    }
}
