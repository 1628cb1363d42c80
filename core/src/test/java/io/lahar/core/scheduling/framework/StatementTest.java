package io.lahar.core.scheduling.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatementTest {

    private Session session() {
        JobInfo low = Fixtures.running("low", "default", 0, "1", "n0");
        JobInfo j = JobInfo.builder("j")
                .tasks("w", 2, java.util.Map.of("cpu", "1"))
                .phase(PodGroupPhase.Inqueue)
                .build();
        return Session.open(
                SchedulerConf.defaults(),
                new Snapshot(Fixtures.nodes(2, "2", "4Gi"), List.of(), List.of(low, j)),
                PluginRegistry.defaults());
    }

    @Test
    void discardUndoesEverythingInReverse() {
        Session ssn = session();
        SessionNode n0 = ssn.node("n0");
        SessionNode n1 = ssn.node("n1");
        Resource idle0 = n0.idle();
        Resource queueAllocated = ssn.queue("default").allocated();
        SessionJob j = ssn.job("default/j");
        SessionTask victim = ssn.job("default/low").tasks().get(0);
        Statement stmt = ssn.statement();
        stmt.evict(victim, "test");
        stmt.allocate(j.tasks().get(0), n1);
        stmt.pipeline(j.tasks().get(1), n0);
        assertThat(victim.status()).isEqualTo(TaskStatus.Releasing);
        assertThat(n0.futureIdle().milliCpu()).isEqualTo(1000); // 2 - 1 used + 1 releasing - 1 pipelined
        assertThat(j.isPipelined()).isTrue();
        assertThat(j.isReady()).isFalse();
        stmt.discard();
        assertThat(victim.status()).isEqualTo(TaskStatus.Running);
        assertThat(n0.idle()).isEqualTo(idle0);
        assertThat(n0.releasing().isEmpty()).isTrue();
        assertThat(n0.pipelined().isEmpty()).isTrue();
        assertThat(n1.used().isEmpty()).isTrue();
        assertThat(ssn.queue("default").allocated()).isEqualTo(queueAllocated);
        assertThat(j.pendingTaskNum()).isEqualTo(2);
        assertThatThrownBy(stmt::commit).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void undoToAMarkUndoesOnlyWhatCameAfterItAndTheStatementGoesOn() {
        Session ssn = session();
        SessionNode n0 = ssn.node("n0");
        SessionNode n1 = ssn.node("n1");
        SessionJob j = ssn.job("default/j");
        SessionTask victim = ssn.job("default/low").tasks().get(0);
        Statement stmt = ssn.statement();
        stmt.allocate(j.tasks().get(0), n1);
        Resource queueAfterFirst = ssn.queue("default").allocated();
        int mark = stmt.mark();
        stmt.evict(victim, "test");
        stmt.pipeline(j.tasks().get(1), n0);
        stmt.undoTo(mark);
        assertThat(victim.status()).isEqualTo(TaskStatus.Running);
        assertThat(n0.releasing().isEmpty()).isTrue();
        assertThat(n0.pipelined().isEmpty()).isTrue();
        assertThat(ssn.queue("default").allocated()).isEqualTo(queueAfterFirst);
        assertThat(stmt.operations())
                .singleElement()
                .satisfies(op -> assertThat(op.kind()).isEqualTo(Statement.Kind.ALLOCATE));
        stmt.commit();
        SessionResult r = ssn.close();
        assertThat(r.evictions()).isEmpty();
        assertThat(r.nominations()).extracting(SessionResult.Nomination::task).containsExactly("j-w-0");
    }

    @Test
    void commitKeepsTheOperationsAsDecisions() {
        Session ssn = session();
        SessionJob j = ssn.job("default/j");
        Statement stmt = ssn.statement();
        stmt.allocate(j.tasks().get(0), ssn.node("n1"));
        stmt.allocate(j.tasks().get(1), ssn.node("n1"));
        stmt.commit();
        SessionResult r = ssn.close();
        assertThat(r.bindings()).extracting(SessionResult.Binding::task).containsExactly("j-w-0", "j-w-1");
        assertThat(r.phaseOf("default/j", PodGroupPhase.Inqueue)).isEqualTo(PodGroupPhase.Running);
    }

    @Test
    void aCommittedButUnreadyGangIsOnlyReserved() {
        Session ssn = session();
        SessionJob j = ssn.job("default/j");
        Statement stmt = ssn.statement();
        stmt.allocate(j.tasks().get(0), ssn.node("n1"));
        stmt.commit();
        SessionResult r = ssn.close();
        assertThat(r.bindings()).isEmpty();
        assertThat(r.nominations())
                .singleElement()
                .extracting(SessionResult.Nomination::task)
                .isEqualTo("j-w-0");
    }

    @Test
    void unpipelineFreesTheNodeAndItsUndoPipelinesAgain() {
        Session ssn = session();
        SessionNode n0 = ssn.node("n0");
        SessionJob j = ssn.job("default/j");
        SessionTask t = j.tasks().get(0);
        Resource queueBefore = ssn.queue("default").allocated();
        Statement first = ssn.statement();
        first.pipeline(t, n0);
        first.commit();
        Statement stmt = ssn.statement();
        stmt.unpipeline(t);
        assertThat(t.status()).isEqualTo(TaskStatus.Pending);
        assertThat(t.node()).isNull();
        assertThat(n0.pipelined().isEmpty()).isTrue();
        assertThat(n0.tasks()).doesNotContain(t);
        assertThat(ssn.queue("default").allocated()).isEqualTo(queueBefore);
        assertThat(j.waitingTaskNum()).isZero();
        stmt.discard();
        assertThat(t.status()).isEqualTo(TaskStatus.Pipelined);
        assertThat(t.node()).isSameAs(n0);
        assertThat(n0.tasks()).contains(t);
        assertThat(j.waitingTaskNum()).isEqualTo(1);
        Statement again = ssn.statement();
        again.unpipeline(t);
        again.commit();
        // The pipelining committed first no longer holds: it is not a nomination any more.
        assertThat(ssn.close().nominations()).isEmpty();
    }
}
