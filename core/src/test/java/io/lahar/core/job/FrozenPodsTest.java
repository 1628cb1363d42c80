package io.lahar.core.job;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    void aRunsWorkingCopyIsTakenAsItIsAndAFrozenMapIsNotCopiedAgain() {
        TreeMap<String, JobPod> working = new TreeMap<>(Map.of("a", pod("a")));
        FrozenPods adopted = FrozenPods.adopt(working);
        JobInfo info = new JobInfo(null, adopted, null, null, null, null, 0, false, null);

        assertThat(info.pods()).isSameAs(adopted);
        assertThat(new JobInfo(null, info.pods(), null, null, null, null, 0, false, null).pods()).isSameAs(adopted);
    }

    @Test
    void noPodsIsAnEmptyMap() {
        assertThat(JobInfo.empty().pods()).isEmpty();
        assertThat(FrozenPods.adopt(new TreeMap<>())).isEmpty();
    }
}
