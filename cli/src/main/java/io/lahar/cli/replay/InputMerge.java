package io.lahar.cli.replay;

import java.util.ArrayList;
import java.util.List;

/**
 * The order a Kafka Streams task processes its partitions' records in: each partition is a queue
 * read in offset order, and the task takes the head with the lowest record timestamp. Ties go to
 * the queue listed first (the source's topic order: commands, pod events, decisions, clock), a
 * deterministic stand-in for the task's priority queue.
 */
public final class InputMerge {

    private InputMerge() {}

    /** @param queues one list per partition, each in offset order */
    public static List<ReplayInput> merge(List<List<ReplayInput>> queues) {
        int[] heads = new int[queues.size()];
        List<ReplayInput> merged = new ArrayList<>();
        while (true) {
            int best = -1;
            for (int q = 0; q < queues.size(); q++) {
                if (heads[q] < queues.get(q).size()
                        && (best < 0
                                || queues.get(q).get(heads[q]).timestamp()
                                        < queues.get(best).get(heads[best]).timestamp())) {
                    best = q;
                }
            }
            if (best < 0) {
                return merged;
            }
            merged.add(queues.get(best).get(heads[best]++));
        }
    }
}
