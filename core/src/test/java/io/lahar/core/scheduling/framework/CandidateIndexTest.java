package io.lahar.core.scheduling.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CandidateIndexTest {

    private static final String YAML = SchedulerConf.DEFAULT_YAML;

    @Test
    void decidesAsAFullScanEvenWhenClassesOutnumberItsCapacity() {
        // More distinct task classes than the index keeps, so classes are dropped and rebuilt.
        List<JobInfo> jobs = new ArrayList<>();
        for (int j = 0; j < CandidateIndex.MAX_CLASSES * 3; j++) {
            jobs.add(JobInfo.builder("j" + j)
                    .creationIndex(j % 7)
                    .tasks("w", 1 + j % 3, Map.of("cpu", (100 + 10 * j) + "m", "memory", (64 + j) + "Mi"))
                    .build());
        }
        Snapshot s = new Snapshot(Fixtures.nodes(13, "16", "64Gi"), List.of(), jobs);
        SessionResult indexed = new Scheduler(SchedulerConf.parse(YAML)).schedule(s);
        SessionResult scanned = new Scheduler(SchedulerConf.parse(
                        YAML + "configurations:\n- name: allocate\n  arguments: {candidateIndex: false}\n"))
                .schedule(s);
        assertThat(indexed.bindings()).isNotEmpty().containsExactlyElementsOf(scanned.bindings());
        assertThat(indexed.conditions()).isEqualTo(scanned.conditions());
    }

    /** The heap gives the highest score first, ties to the lower node, and retain drops superseded entries only. */
    @Test
    void scoreHeapPollsByScoreThenNodeAndRetainKeepsCurrentVersions() {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
        CandidateIndex.ScoreHeap heap = new CandidateIndex.ScoreHeap();
        long[] current = new long[200];
        List<double[]> added = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            int node = rnd.nextInt(current.length);
            double score = rnd.nextInt(20); // many ties
            heap.add(score, node, current[node]);
            added.add(new double[] {score, node, current[node]});
            if (rnd.nextInt(3) == 0) current[node]++; // the node's entries so far are superseded
        }
        heap.retain(current);
        List<double[]> expected = new ArrayList<>();
        for (double[] e : added) if ((long) e[2] == current[(int) e[1]]) expected.add(new double[] {e[0], e[1]});
        expected.sort((a, b) -> a[0] != b[0] ? Double.compare(b[0], a[0]) : Double.compare(a[1], b[1]));
        List<double[]> polled = new ArrayList<>();
        while (heap.size() > 0) {
            assertThat(heap.topVersion()).isEqualTo(current[heap.topNode()]);
            polled.add(new double[] {heap.topScore(), heap.topNode()});
            heap.poll();
        }
        assertThat(polled).hasSameSizeAs(expected);
        for (int i = 0; i < polled.size(); i++) assertThat(polled.get(i)).containsExactly(expected.get(i));
    }
}
