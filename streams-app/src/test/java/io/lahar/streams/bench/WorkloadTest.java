package io.lahar.streams.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.PodEvent;
import io.lahar.schema.Topics;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The benchmark's two orders of the same pod events: each job's pods together, or one pod of each job in turn. */
class WorkloadTest {

    private static final Map<Integer, String> UIDS = Map.of(0, "u0", 1, "u1", 2, "u2");

    @Test
    void togetherAJobsPodsFollowOneAnotherAndInterleavedEachJobHasOnePodInTurn() {
        List<String> together = order(new Workload("r", 3, 2, 0, false));
        List<String> interleaved = order(new Workload("r", 3, 2, 0, true));

        assertThat(together)
                .containsExactly(
                        "0/0 Running",
                        "0/1 Running",
                        "1/0 Running",
                        "1/1 Running",
                        "2/0 Running",
                        "2/1 Running",
                        "0/0 Succeeded",
                        "0/1 Succeeded",
                        "1/0 Succeeded",
                        "1/1 Succeeded",
                        "2/0 Succeeded",
                        "2/1 Succeeded");
        assertThat(interleaved)
                .containsExactly(
                        "0/0 Running",
                        "1/0 Running",
                        "2/0 Running",
                        "0/1 Running",
                        "1/1 Running",
                        "2/1 Running",
                        "0/0 Succeeded",
                        "1/0 Succeeded",
                        "2/0 Succeeded",
                        "0/1 Succeeded",
                        "1/1 Succeeded",
                        "2/1 Succeeded");
    }

    @Test
    void bothOrdersAreTheSameEventsUnderTheJobsKeys() {
        Workload together = new Workload("r", 3, 4, 0, false);
        Workload interleaved = new Workload("r", 3, 4, 0, true);

        assertThat(interleaved.podEvents(UIDS))
                .hasSize(2 * 3 * 4)
                .containsExactlyInAnyOrderElementsOf(together.podEvents(UIDS))
                .allSatisfy(e -> assertThat(e.key())
                        .isEqualTo(Topics.jobKey(
                                e.value().getNamespace(), e.value().getJob())));
        assertThat(IntStream.range(0, 3)
                        .mapToObj(i -> interleaved.podEvents(UIDS).stream()
                                .filter(e -> e.key().equals(interleaved.key(i)))
                                .map(e -> e.value().getJobUid())
                                .distinct()
                                .toList()))
                .containsExactly(List.of("u0"), List.of("u1"), List.of("u2"));
    }

    /** "job/pod phase" of each event, in send order. */
    private static List<String> order(Workload workload) {
        return workload.podEvents(UIDS).stream()
                .map(e -> {
                    PodEvent event = e.value();
                    String job = event.getJob().substring(event.getJob().lastIndexOf('-') + 1);
                    return job + "/" + event.getIndex() + " " + event.getPhase();
                })
                .toList();
    }
}
