package io.lahar.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Job;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.PodGroup;
import org.junit.jupiter.api.Test;

/** The pod group and pod names remembered per job while its spec is the same object. */
class SpecMemoTest {

    private static Job withUid(Job job, String uid) {
        ObjectMeta m = job.metadata();
        return job.withMetadata(new ObjectMeta(
                m.name(),
                m.generateName(),
                m.namespace(),
                uid,
                m.resourceVersion(),
                m.generation(),
                m.creationTimestamp(),
                m.deletionTimestamp(),
                m.labels(),
                m.annotations(),
                m.ownerReferences(),
                m.finalizers()));
    }

    @Test
    void theSameSpecObjectGivesTheRememberedPodGroupEqualToAFreshBuild() {
        SpecMemo memo = new SpecMemo(8);
        Job job = withUid(TestJobs.job("a", "minAvailable: 3", "w:4"), "u1");
        PodGroup first = memo.podGroup(job);
        assertThat(first).isEqualTo(PodGroups.build(job));
        // A pod event changes only the status: same spec object, so no rebuild.
        assertThat(memo.podGroup(job.withStatus(null))).isSameAs(first);
    }

    @Test
    void aChangedSpecOrUidIsBuiltAgain() {
        SpecMemo memo = new SpecMemo(8);
        Job job = withUid(TestJobs.job("a", "", "w:2"), "u1");
        PodGroup before = memo.podGroup(job);

        Job scaled = job.withSpec(TestJobs.job("a", "", "w:5").spec());
        PodGroup after = memo.podGroup(scaled);
        assertThat(after).isEqualTo(PodGroups.build(scaled)).isNotEqualTo(before);
        assertThat(after.spec().minMember()).isEqualTo(5);

        Job recreated = withUid(scaled, "u2");
        assertThat(memo.podGroup(recreated).metadata().name()).isEqualTo("a-u2");
        assertThat(memo.podGroup(recreated)).isEqualTo(PodGroups.build(recreated));
    }

    @Test
    void anEqualButNewSpecObjectIsBuiltAgainWithAnEqualResult() {
        SpecMemo memo = new SpecMemo(8);
        Job job = TestJobs.job("a", "", "w:2");
        Job decodedAgain = job.withSpec(TestJobs.job("a", "", "w:2").spec());
        PodGroup first = memo.podGroup(job);
        PodGroup second = memo.podGroup(decodedAgain);
        assertThat(second).isNotSameAs(first).isEqualTo(first);
    }

    @Test
    void jobsSharingOneSpecObjectKeepTheirOwnNamesAndPodGroups() {
        SpecMemo memo = new SpecMemo(8);
        Job a = withUid(TestJobs.job("a", "", "w:2"), "u1");
        // Another job built from the very same spec object (a flow's template, a simulation's copy).
        Job b = withUid(renamed(a, "b"), "u1");
        assertThat(b.spec()).isSameAs(a.spec());

        assertThat(memo.podNames(a)[0]).containsExactly("a-w-0", "a-w-1");
        assertThat(memo.podNames(b)[0]).containsExactly("b-w-0", "b-w-1");
        assertThat(memo.podGroup(a).metadata().name()).startsWith("a-");
        assertThat(memo.podGroup(b).metadata().name()).startsWith("b-");
        assertThat(memo.podNameSet(a)).containsExactlyInAnyOrder("a-w-0", "a-w-1");
        assertThat(memo.podNameSet(b)).containsExactlyInAnyOrder("b-w-0", "b-w-1");
        // Asked again, each job gets its own derivations back, not the last job's.
        assertThat(memo.podNames(a)[0]).containsExactly("a-w-0", "a-w-1");
        assertThat(memo.size()).isEqualTo(2);
    }

    private static Job renamed(Job job, String name) {
        ObjectMeta m = job.metadata();
        return job.withMetadata(new ObjectMeta(
                name,
                m.generateName(),
                m.namespace(),
                m.uid(),
                m.resourceVersion(),
                m.generation(),
                m.creationTimestamp(),
                m.deletionTimestamp(),
                m.labels(),
                m.annotations(),
                m.ownerReferences(),
                m.finalizers()));
    }

    @Test
    void itKeepsAtMostItsCapacity() {
        SpecMemo memo = new SpecMemo(2);
        for (String name : new String[] {"a", "b", "c", "d"}) {
            memo.podGroup(TestJobs.job(name, "", "w:1"));
        }
        assertThat(memo.size()).isEqualTo(2);
    }

    @Test
    void podNamesAreTheSpecsReplicasByTaskAndIndexAndFollowAScale() {
        SpecMemo memo = new SpecMemo(8);
        Job job = TestJobs.job("a", "", "ps:1", "w:2");
        assertThat(memo.podNames(job)).isDeepEqualTo(new String[][] {{"a-ps-0"}, {"a-w-0", "a-w-1"}});
        assertThat(memo.podNames(job.withStatus(null))).isSameAs(memo.podNames(job));

        Job scaled = job.withSpec(TestJobs.job("a", "", "ps:1", "w:3").spec());
        assertThat(memo.podNames(scaled)[1]).containsExactly("a-w-0", "a-w-1", "a-w-2");
        // Both derivations share the entry: asking for one keeps the other valid for the same spec.
        assertThat(memo.podGroup(scaled)).isEqualTo(PodGroups.build(scaled));
        assertThat(memo.podNames(scaled)[1]).hasSize(3);
    }
}
