package io.lahar.core.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class FrozenPodsTest {

    private static JobPod pod(String name) {
        return new JobPod(name, "worker", 0, 0, PodPhase.Pending, null, 0, false, false);
    }

    @Test
    void aJobInfoKeepsACopySortedByNameThatTheCallerCannotChangeLater() {
        TreeMap<String, JobPod> given = new TreeMap<>();
        given.put("j-worker-1", pod("j-worker-1"));
        given.put("j-worker-0", pod("j-worker-0"));
        JobInfo info = new JobInfo(null, given, null, null, null, null, 0, false, null);
        given.put("j-worker-2", pod("j-worker-2"));

        assertThat(info.pods().keySet()).containsExactly("j-worker-0", "j-worker-1");
        assertThat(info.pods().firstKey()).isEqualTo("j-worker-0");
        assertThat(info.pods()).isEqualTo(Map.of("j-worker-0", pod("j-worker-0"), "j-worker-1", pod("j-worker-1")));
    }

    @Test
    void noOneChangesTheStoredPods() {
        JobInfo info = new JobInfo(null, new TreeMap<>(Map.of("a", pod("a"))), null, null, null, null, 0, false, null);

        assertThatThrownBy(() -> info.pods().put("b", pod("b"))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> info.pods().remove("a")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> info.pods().entrySet().iterator().next().setValue(pod("x")))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> info.pods().values().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThat(info.pods()).containsOnlyKeys("a");
    }

    @Test
    void aFrozenMapIsNotCopiedAgain() {
        FrozenPods frozen = FrozenPods.copyOf(new TreeMap<>(Map.of("a", pod("a"))));
        JobInfo info = new JobInfo(null, frozen, null, null, null, null, 0, false, null);

        assertThat(info.pods()).isSameAs(frozen);
        assertThat(new JobInfo(null, info.pods(), null, null, null, null, 0, false, null).pods())
                .isSameAs(frozen);
    }

    @Test
    void noPodsIsAnEmptyMap() {
        assertThat(JobInfo.empty().pods()).isEmpty();
        assertThat(FrozenPods.copyOf(new TreeMap<>()).builder().freeze()).isEmpty();
    }

    @Test
    void aRunChangesItsOwnCopyAndNeitherTheMapItStartedFromNorOneItFroze() {
        TreeMap<String, JobPod> start = pending(300);
        FrozenPods before = FrozenPods.copyOf(start);
        FrozenPods.Builder run = before.builder();
        run.put(name(7), pod(name(7)).markTerminating());
        run.remove(name(8));
        run.put("j-worker-0099x", pod("j-worker-0099x"));
        FrozenPods after = run.freeze();
        run.remove(name(9));
        run.put(name(10), pod(name(10)).withPhase(PodPhase.Running, null, 0));

        assertThat(before).isEqualTo(start);
        assertThat(after)
                .hasSize(300)
                .containsKey("j-worker-0099x")
                .doesNotContainKey(name(8))
                .containsKey(name(9));
        assertThat(after.get(name(7)).terminating()).isTrue();
        assertThat(after.get(name(10)).phase()).isEqualTo(PodPhase.Pending);
        assertThat(run.freeze()).hasSize(299).doesNotContainKey(name(9));
    }

    /**
     * Random runs of puts and removes, each run starting from the last one's frozen map: the map
     * reads as a TreeMap given the same changes, in the same order, and its tally counts what a
     * look at every pod counts — the map the run started from keeps its own counts.
     */
    @Test
    void chunkedPodsReadAsATreeMapAndTallyAsAScan() {
        Random random = new Random(20261202);
        TreeMap<String, JobPod> expected = new TreeMap<>();
        FrozenPods frozen = FrozenPods.copyOf(expected);
        PodPhase[] phases = PodPhase.values();
        for (int run = 0; run < 400; run++) {
            FrozenPods.Builder b = frozen.builder();
            TreeMap<String, JobPod> was = new TreeMap<>(expected);
            for (int step = 0; step < 1 + random.nextInt(40); step++) {
                String name = name(random.nextInt(600));
                if (random.nextInt(4) == 0) {
                    assertThat(b.remove(name)).isEqualTo(expected.remove(name));
                } else {
                    JobPod p = new JobPod(
                            name,
                            "t" + random.nextInt(3),
                            0,
                            random.nextInt(6),
                            phases[random.nextInt(phases.length)],
                            null,
                            random.nextInt(4),
                            random.nextBoolean(),
                            random.nextInt(5) == 0);
                    b.put(name, p);
                    expected.put(name, p);
                }
                assertThat(b.size()).isEqualTo(expected.size());
            }
            assertThat(frozen).isEqualTo(was);
            // The run's changes to the counts did not reach the map it started from (they share a tally until then).
            assertTallied(frozen.builder(), was);
            FrozenPods previous = frozen;
            frozen = b.freeze();
            assertDiffTakes(previous, frozen);
            assertThat(frozen).isEqualTo(expected);
            assertThat(new ArrayList<>(frozen.keySet())).isEqualTo(new ArrayList<>(expected.keySet()));
            assertThat(b.values()).isEqualTo(new ArrayList<>(expected.values()));
            if (!expected.isEmpty()) {
                assertThat(frozen.firstKey()).isEqualTo(expected.firstKey());
                assertThat(frozen.lastKey()).isEqualTo(expected.lastKey());
            }
            assertTallied(b, expected);
        }
    }

    /** Applying the diff to the earlier map gives the later one, and names only what differs. */
    private static void assertDiffTakes(FrozenPods before, FrozenPods after) {
        TreeMap<String, JobPod> applied = new TreeMap<>(before);
        List<String> named = new ArrayList<>();
        PodChanges.between(before, after, new PodChanges() {
            @Override
            public void put(String name, JobPod was, JobPod pod) {
                assertThat(was).isEqualTo(before.get(name));
                assertThat(pod).isNotEqualTo(before.get(name));
                applied.put(name, pod);
                named.add(name);
            }

            @Override
            public void removed(String name, JobPod was) {
                assertThat(was).isEqualTo(before.get(name));
                assertThat(after).doesNotContainKey(name);
                applied.remove(name);
                named.add(name);
            }
        });
        assertThat(applied).isEqualTo(after);
        assertThat(named).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void theDiffOfARunThatChangedOnePodOfThousandsNamesThatPod() {
        FrozenPods before = FrozenPods.copyOf(pending(5000));
        FrozenPods.Builder run = before.builder();
        run.put(name(4321), pod(name(4321)).withPhase(PodPhase.Running, null, 0));
        List<String> named = new ArrayList<>();
        PodChanges.between(before, run.freeze(), new PodChanges() {
            @Override
            public void put(String name, JobPod was, JobPod pod) {
                named.add(name);
            }

            @Override
            public void removed(String name, JobPod was) {
                named.add("-" + name);
            }
        });

        assertThat(named).containsExactly(name(4321));
    }

    private static void assertTallied(FrozenPods.Builder b, Map<String, JobPod> pods) {
        PodTally t = b.tally();
        Set<String> spec = new HashSet<>();
        for (int i = 0; i < 600; i += 2) {
            spec.add(name(i));
        }
        assertThat(b.inSpec(spec))
                .isEqualTo((int) pods.keySet().stream().filter(spec::contains).count());
        assertThat(t.terminating()).isEqualTo((int)
                pods.values().stream().filter(JobPod::terminating).count());
        for (PodPhase phase : PodPhase.values()) {
            assertThat(t.live(phase)).isEqualTo((int) pods.values().stream()
                    .filter(p -> !p.terminating() && p.phase() == phase)
                    .count());
        }
        for (String task : List.of("t0", "t1", "t2")) {
            assertThat(t.succeeded(task)).isEqualTo((int) pods.values().stream()
                    .filter(p -> p.task().equals(task) && p.phase() == PodPhase.Succeeded)
                    .count());
            assertThat(t.restarts(task))
                    .isEqualTo(pods.values().stream()
                            .filter(p -> p.task().equals(task)
                                    && (p.phase() == PodPhase.Pending || p.phase() == PodPhase.Running))
                            .mapToInt(JobPod::restartCount)
                            .sum());
            assertThat(t.live(task, PodPhase.Running)).isEqualTo((int) pods.values().stream()
                    .filter(p -> p.task().equals(task) && !p.terminating() && p.phase() == PodPhase.Running)
                    .count());
        }
        for (int version = 0; version <= 6; version++) {
            int v = version;
            assertThat(t.unfinishedBefore(version))
                    .isEqualTo(pods.values().stream()
                            .anyMatch(p -> !p.terminating() && !p.phase().isTerminal() && p.version() < v));
        }
    }

    /** {@code n} Pending pods, named as {@link #name} numbers them. */
    private static TreeMap<String, JobPod> pending(int n) {
        TreeMap<String, JobPod> pods = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            pods.put(name(i), pod(name(i)));
        }
        return pods;
    }

    private static String name(int i) {
        return "j-worker-%04d".formatted(i);
    }
}
