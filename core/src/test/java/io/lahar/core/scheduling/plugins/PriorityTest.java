package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.Fixtures.boundIn;
import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PriorityTest {

    @Test
    void higherPriorityJobGoesFirstEvenIfCreatedLater() {
        JobInfo early = JobInfo.builder("early")
                .tasks("w", 2, Map.of("cpu", "1"))
                .creationIndex(1)
                .build();
        JobInfo urgent = JobInfo.builder("urgent")
                .tasks("w", 2, Map.of("cpu", "1"))
                .priority(10)
                .creationIndex(2)
                .build();
        SessionResult r = run(nodes(1, "2", "8Gi"), List.of(), List.of(early, urgent));
        assertThat(boundIn(r, key("urgent"))).isEqualTo(2);
        assertThat(boundIn(r, key("early"))).isZero();
    }

    @Test
    void higherPriorityTaskGoesFirstWithinAJob() {
        JobInfo j = JobInfo.builder("j")
                .task(TaskInfo.builder("j-a")
                        .resreq(Map.of("cpu", "2"))
                        .priority(1)
                        .build())
                .task(TaskInfo.builder("j-b")
                        .resreq(Map.of("cpu", "2"))
                        .priority(5)
                        .build())
                .minMember(1)
                .build();
        SessionResult r = run(nodes(1, "2", "8Gi"), List.of(), List.of(j));
        assertThat(r.bindings())
                .singleElement()
                .extracting(SessionResult.Binding::task)
                .isEqualTo("j-b");
    }
}
