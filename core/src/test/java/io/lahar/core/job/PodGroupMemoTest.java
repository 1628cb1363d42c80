package io.lahar.core.job;

import io.lahar.core.api.Job;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.PodGroup;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The pod group remembered per job while its spec is the same object. */
class PodGroupMemoTest {

    private static Job withUid(Job job, String uid) {
        ObjectMeta m = job.metadata();
        return job.withMetadata(new ObjectMeta(m.name(), m.generateName(), m.namespace(), uid, m.resourceVersion(),
                m.generation(), m.creationTimestamp(), m.deletionTimestamp(), m.labels(), m.annotations(),
                m.ownerReferences(), m.finalizers()));
    }

    @Test
    void theSameSpecObjectGivesTheRememberedPodGroupEqualToAFreshBuild() {
        PodGroupMemo memo = new PodGroupMemo(8);
        Job job = withUid(TestJobs.job("a", "minAvailable: 3", "w:4"), "u1");
        PodGroup first = memo.build(job);
        assertThat(first).isEqualTo(PodGroups.build(job));
        // A pod event changes only the status: same spec object, so no rebuild.
        assertThat(memo.build(job.withStatus(null))).isSameAs(first);
    }

    @Test
    void aChangedSpecOrUidIsBuiltAgain() {
        PodGroupMemo memo = new PodGroupMemo(8);
        Job job = withUid(TestJobs.job("a", "", "w:2"), "u1");
        PodGroup before = memo.build(job);

        Job scaled = job.withSpec(TestJobs.job("a", "", "w:5").spec());
        PodGroup after = memo.build(scaled);
        assertThat(after).isEqualTo(PodGroups.build(scaled)).isNotEqualTo(before);
        assertThat(after.spec().minMember()).isEqualTo(5);

        Job recreated = withUid(scaled, "u2");
        assertThat(memo.build(recreated).metadata().name()).isEqualTo("a-u2");
        assertThat(memo.build(recreated)).isEqualTo(PodGroups.build(recreated));
    }

    @Test
    void anEqualButNewSpecObjectIsBuiltAgainWithAnEqualResult() {
        PodGroupMemo memo = new PodGroupMemo(8);
        Job job = TestJobs.job("a", "", "w:2");
        Job decodedAgain = job.withSpec(TestJobs.job("a", "", "w:2").spec());
        PodGroup first = memo.build(job);
        PodGroup second = memo.build(decodedAgain);
        assertThat(second).isNotSameAs(first).isEqualTo(first);
    }

    @Test
    void itKeepsAtMostItsCapacity() {
        PodGroupMemo memo = new PodGroupMemo(2);
        for (String name : new String[] {"a", "b", "c", "d"}) {
            memo.build(TestJobs.job(name, "", "w:1"));
        }
        assertThat(memo.size()).isEqualTo(2);
    }
}
