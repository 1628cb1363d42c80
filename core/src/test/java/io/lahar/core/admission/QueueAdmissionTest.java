package io.lahar.core.admission;

import io.lahar.core.api.Queue;
import io.lahar.core.api.QueueState;
import org.junit.jupiter.api.Test;

import static io.lahar.core.admission.Fixtures.ONE_TASK;
import static io.lahar.core.admission.Fixtures.assertAccepted;
import static io.lahar.core.admission.Fixtures.assertRejected;
import static io.lahar.core.admission.Fixtures.job;
import static io.lahar.core.admission.Fixtures.messages;
import static io.lahar.core.admission.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

class QueueAdmissionTest {

    static final AdmissionContext FRESH = AdmissionContext.freshInstall();

    @Test
    void defaults() {
        Queue q = assertAccepted(QueueAdmission.create(queue("metadata: {name: q}\n"), FRESH));
        assertThat(q.spec().weight()).isEqualTo(1);
        assertThat(q.spec().reclaimable()).isTrue();
        assertThat(q.spec().parent()).isEqualTo("root");
        assertThat(q.status().state()).isEqualTo("Open");
    }

    @Test
    void givenValuesAreKept() {
        Queue q = assertAccepted(QueueAdmission.create(queue("metadata: {name: q}\nspec: {weight: 3, reclaimable: false}\n"
                + "status: {state: Closed}\n"), FRESH));
        assertThat(q.spec().weight()).isEqualTo(3);
        assertThat(q.spec().reclaimable()).isFalse();
        assertThat(q.stateOrOpen()).isEqualTo(QueueState.Closed);
    }

    @Test
    void weightMustBePositive() {
        assertRejected(QueueAdmission.create(queue("metadata: {name: q}\nspec: {weight: -1}\n"), FRESH),
                "spec.weight: queue weight must be a positive integer");
    }

    @Test
    void stateMustBeOpenOrClosed() {
        assertRejected(QueueAdmission.create(queue("metadata: {name: q}\nstatus: {state: Sleeping}\n"), FRESH),
                "status.state: unsupported value \"Sleeping\": supported values: \"Open\", \"Closed\"");
    }

    @Test
    void guaranteeDeservedCapability() {
        var r = QueueAdmission.create(queue("""
                metadata: {name: q}
                spec:
                  capability: {cpu: 4, memory: 8Gi}
                  deserved: {cpu: 6}
                  guarantee: {resource: {cpu: 5, memory: 1Gi}}
                """), FRESH);
        assertThat(messages(r)).containsExactly(
                "spec.deserved.cpu: deserved should be less than or equal to capability (4)",
                "spec.guarantee.resource.cpu: guarantee should be less than or equal to capability (4)");
    }

    @Test
    void invalidQuantities() {
        assertRejected(QueueAdmission.create(queue("metadata: {name: q}\nspec: {capability: {cpu: lots}}\n"), FRESH),
                "spec.capability.cpu: invalid quantity \"lots\"");
    }

    @Test
    void parentMustExist() {
        assertRejected(QueueAdmission.create(queue("metadata: {name: q}\nspec: {parent: nope}\n"), FRESH),
                "spec.parent: parent queue \"nope\" not found");
    }

    @Test
    void childrenRespectTheParent() {
        AdmissionContext ctx = FRESH.with(queue("""
                metadata: {name: team}
                spec: {parent: root, capability: {cpu: 8}, guarantee: {resource: {cpu: 4}}}
                """)).with(queue("""
                metadata: {name: dev}
                spec: {parent: team, guarantee: {resource: {cpu: 3}}}
                """));
        var r = QueueAdmission.create(queue("""
                metadata: {name: test}
                spec: {parent: team, capability: {cpu: 10}, guarantee: {resource: {cpu: 2}}}
                """), ctx);
        assertThat(messages(r)).containsExactly(
                "spec.capability.cpu: must not exceed the capability of parent queue \"team\" (8)",
                "spec.guarantee.resource.cpu: the guarantee of the children of queue \"team\" (5 cpu) would exceed its own guarantee (4)");
        assertAccepted(QueueAdmission.create(queue("metadata: {name: test}\nspec: {parent: team, capability: {cpu: 8}}\n"), ctx));
    }

    @Test
    void aQueueWithJobsCanNotBecomeAParent() {
        AdmissionContext ctx = FRESH.with(assertAccepted(JobAdmission.create(job("train", ONE_TASK), FRESH)));
        assertRejected(QueueAdmission.create(queue("metadata: {name: q}\nspec: {parent: default}\n"), ctx),
                "spec.parent: queue \"default\" can not be a parent queue: jobs were submitted to it (default/train)");
    }

    @Test
    void hierarchyMayNotFormACycle() {
        AdmissionContext ctx = FRESH.with(AdmissionContext.openQueue("a", "root")).with(AdmissionContext.openQueue("b", "a"));
        Queue a = ctx.queue("a").orElseThrow();
        assertRejected(QueueAdmission.update(a, queue("metadata: {name: a}\nspec: {parent: b}\n"), ctx),
                "spec.parent: queue \"b\" is a descendant of \"a\": the hierarchy would form a cycle");
        assertRejected(QueueAdmission.create(queue("metadata: {name: c}\nspec: {parent: c}\n"), ctx),
                "spec.parent: a queue can not be its own parent");
    }

    @Test
    void rootAndDefaultCanNotBeDeleted() {
        assertRejected(QueueAdmission.delete(FRESH.queue("root").orElseThrow(), FRESH), "metadata.name: `root` queue can not be deleted");
        assertRejected(QueueAdmission.delete(FRESH.queue("default").orElseThrow(), FRESH), "metadata.name: `default` queue can not be deleted");
    }

    @Test
    void deletingAParentOrAMissingQueue() {
        AdmissionContext ctx = FRESH.with(AdmissionContext.openQueue("a", "root")).with(AdmissionContext.openQueue("b", "a"));
        assertRejected(QueueAdmission.delete(queue("metadata: {name: a}\n"), ctx),
                "metadata.name: queue \"a\" has child queues (b) and can not be deleted");
        assertRejected(QueueAdmission.delete(queue("metadata: {name: zz}\n"), ctx), "metadata.name: queue \"zz\" not found");
        assertAccepted(QueueAdmission.delete(queue("metadata: {name: b}\n"), ctx));
    }

    @Test
    void hierarchyAnnotations() {
        var r = QueueAdmission.create(queue("""
                metadata:
                  name: q
                  annotations: {volcano.sh/hierarchy: "sci/dev", volcano.sh/hierarchy-weights: "1"}
                """), FRESH);
        assertThat(messages(r)).singleElement().asString()
                .isEqualTo("metadata.annotations.volcano.sh/hierarchy: volcano.sh/hierarchy must have the same length with volcano.sh/hierarchy-weights");
        Queue ok = assertAccepted(QueueAdmission.create(queue("""
                metadata:
                  name: q
                  annotations: {volcano.sh/hierarchy: "sci/dev", volcano.sh/hierarchy-weights: "2/8"}
                """), FRESH));
        assertThat(ok.metadata().annotations()).containsEntry("volcano.sh/hierarchy", "root/sci/dev")
                .containsEntry("volcano.sh/hierarchy-weights", "1/2/8");
    }

    @Test
    void creatingAnExistingQueueIsRejected() {
        assertRejected(Admission.create(queue("metadata: {name: default}\n"), FRESH), "metadata.name: queue \"default\" already exists");
    }
}
