package io.lahar.core.admission;

import static io.lahar.core.admission.Fixtures.ONE_TASK;
import static io.lahar.core.admission.Fixtures.assertAccepted;
import static io.lahar.core.admission.Fixtures.assertRejected;
import static io.lahar.core.admission.Fixtures.job;
import static io.lahar.core.admission.Fixtures.messages;
import static io.lahar.core.admission.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Queue;
import io.lahar.core.api.QueueState;
import org.junit.jupiter.api.Test;

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
        Queue q = assertAccepted(QueueAdmission.create(
                queue("metadata: {name: q}\nspec: {weight: 3, reclaimable: false}\n" + "status: {state: Closed}\n"),
                FRESH));
        assertThat(q.spec().weight()).isEqualTo(3);
        assertThat(q.spec().reclaimable()).isFalse();
        assertThat(q.stateOrOpen()).isEqualTo(QueueState.Closed);
    }

    @Test
    void weightMustBePositive() {
        assertRejected(
                QueueAdmission.create(queue("metadata: {name: q}\nspec: {weight: -1}\n"), FRESH),
                "spec.weight: queue weight must be a positive integer");
    }

    @Test
    void stateMustBeOpenOrClosed() {
        assertRejected(
                QueueAdmission.create(queue("metadata: {name: q}\nstatus: {state: Sleeping}\n"), FRESH),
                "status.state: unsupported value \"Sleeping\": supported values: \"Open\", \"Closed\"");
    }

    @Test
    void guaranteeDeservedCapability() {
        var r = QueueAdmission.create(queue("""
                metadata: {name: q}
                spec:
                  capability: {cpu: 4, memory: 8Gi}
                  deserved: {cpu: 6, memory: 1Gi}
                  guarantee: {resource: {cpu: 5, memory: 2Gi, nvidia.com/gpu: 1}}
                """), FRESH);
        assertThat(messages(r))
                .containsExactly(
                        "spec.guarantee.resource.cpu: guarantee[cpu]=5 must be <= capability[cpu]=4",
                        "spec.deserved.memory: deserved[memory]=1073741824 must be >= guarantee[memory]=2147483648",
                        "spec.deserved.nvidia.com/gpu: deserved[nvidia.com/gpu] must be >= guarantee[nvidia.com/gpu]=1",
                        "spec.deserved.cpu: deserved[cpu]=6 must be <= capability[cpu]=4");
        assertAccepted(QueueAdmission.create(queue("""
                metadata: {name: q}
                spec: {capability: {cpu: 8}, deserved: {cpu: 6}, guarantee: {resource: {cpu: 2}}}
                """), FRESH));
    }

    @Test
    void invalidQuantities() {
        assertRejected(
                QueueAdmission.create(queue("metadata: {name: q}\nspec: {capability: {cpu: lots}}\n"), FRESH),
                "spec.capability.cpu: invalid quantity \"lots\"");
    }

    @Test
    void parentMustExist() {
        assertRejected(
                QueueAdmission.create(queue("metadata: {name: q}\nspec: {parent: nope}\n"), FRESH),
                "spec.parent: parent queue \"nope\" not found");
    }

    @Test
    void childrenRespectTheParent() {
        AdmissionContext ctx = FRESH.with(queue("""
                metadata: {name: team}
                spec: {parent: root, capability: {cpu: 8}, deserved: {cpu: 6}, guarantee: {resource: {cpu: 4}}}
                """)).with(queue("""
                metadata: {name: dev}
                spec: {parent: team, deserved: {cpu: 3}, guarantee: {resource: {cpu: 3}}}
                """));
        var r = QueueAdmission.create(queue("""
                metadata: {name: test}
                spec: {parent: team, capability: {cpu: 10}, deserved: {cpu: 2}, guarantee: {resource: {cpu: 2}}}
                """), ctx);
        assertThat(messages(r))
                .containsExactly(
                        "spec.capability.cpu: queue test capability[cpu]=10 exceeds its ancestor's capability=8",
                        "spec.guarantee.resource.cpu: parent queue team validation failed: sum of children's guarantee (cpu 5) exceeds parent's guarantee limit (4)");
        assertAccepted(QueueAdmission.create(
                queue("metadata: {name: test}\nspec: {parent: team, capability: {cpu: 8}}\n"), ctx));
    }

    @Test
    void aParentMustLeaveRoomForItsChildren() {
        Queue team = queue(
                "metadata: {name: team}\nspec: {capability: {cpu: 8}, deserved: {cpu: 4}, guarantee: {resource: {cpu: 4}}}\n");
        AdmissionContext ctx = FRESH.with(team).with(queue("""
                metadata: {name: dev}
                spec: {parent: team, capability: {cpu: 6}, deserved: {cpu: 3}, guarantee: {resource: {cpu: 3}}}
                """));
        var r = QueueAdmission.update(
                team,
                queue(
                        "metadata: {name: team}\nspec: {capability: {cpu: 4}, deserved: {cpu: 2}, guarantee: {resource: {cpu: 2}}}\n"),
                ctx);
        assertThat(messages(r))
                .containsExactly(
                        "spec.capability.cpu: queue team capability[cpu]=4 is smaller than its descendants' max capability=6",
                        "spec.guarantee.resource.cpu: queue team validation failed: sum of children's guarantee (cpu 3) exceeds its guarantee (2)",
                        "spec.deserved.cpu: queue team validation failed: sum of children's deserved (cpu 3) exceeds its deserved (2)");
    }

    @Test
    void aQueueWithJobsCanNotBecomeAParent() {
        AdmissionContext ctx = FRESH.with(assertAccepted(JobAdmission.create(job("train", ONE_TASK), FRESH)));
        assertRejected(
                QueueAdmission.create(queue("metadata: {name: q}\nspec: {parent: default}\n"), ctx),
                "spec.parent: queue default cannot be the parent queue of queue q because jobs were submitted to it (default/train)");
        AdmissionContext busy =
                FRESH.with(queue("metadata: {name: busy}\nstatus: {state: Open, allocated: {pods: 3}}\n"));
        assertRejected(
                QueueAdmission.create(queue("metadata: {name: q}\nspec: {parent: busy}\n"), busy),
                "spec.parent: queue busy cannot be the parent queue of queue q because it has allocated Pods: 3");
    }

    @Test
    void hierarchyMayNotFormACycle() {
        AdmissionContext ctx =
                FRESH.with(AdmissionContext.openQueue("a", "root")).with(AdmissionContext.openQueue("b", "a"));
        Queue a = ctx.queue("a").orElseThrow();
        assertRejected(
                QueueAdmission.update(a, queue("metadata: {name: a}\nspec: {parent: b}\n"), ctx),
                "spec.parent: queue \"b\" is a descendant of \"a\": the hierarchy would form a cycle");
        assertRejected(
                QueueAdmission.create(queue("metadata: {name: c}\nspec: {parent: c}\n"), ctx),
                "spec.parent: queue c cannot use itself as parent");
    }

    @Test
    void atMostFiveLevelsBelowRoot() {
        AdmissionContext ctx = FRESH;
        String parent = "root";
        for (int level = 1; level <= QueueAdmission.MAX_DEPTH - 1; level++) {
            ctx = ctx.with(AdmissionContext.openQueue("l" + level, parent));
            parent = "l" + level;
        }
        assertAccepted(QueueAdmission.create(queue("metadata: {name: l5}\nspec: {parent: l4}\n"), ctx));
        AdmissionContext five = ctx.with(AdmissionContext.openQueue("l5", "l4"));
        assertRejected(
                QueueAdmission.create(queue("metadata: {name: l6}\nspec: {parent: l5}\n"), five),
                "spec.parent: queue l6 exceeds the maximum allowed depth of 5");
    }

    @Test
    void rootAndDefaultCanNotBeDeleted() {
        assertRejected(
                QueueAdmission.delete(FRESH.queue("root").orElseThrow(), FRESH),
                "metadata.name: `root` queue can not be deleted");
        assertRejected(
                QueueAdmission.delete(FRESH.queue("default").orElseThrow(), FRESH),
                "metadata.name: `default` queue can not be deleted");
    }

    @Test
    void deletingAParentOrAMissingQueue() {
        AdmissionContext ctx =
                FRESH.with(AdmissionContext.openQueue("a", "root")).with(AdmissionContext.openQueue("b", "a"));
        assertRejected(
                QueueAdmission.delete(queue("metadata: {name: a}\n"), ctx),
                "metadata.name: queue a can not be deleted because it has 1 child queues: b");
        assertRejected(
                QueueAdmission.delete(queue("metadata: {name: zz}\n"), ctx), "metadata.name: queue \"zz\" not found");
        assertAccepted(QueueAdmission.delete(queue("metadata: {name: b}\n"), ctx));
    }

    @Test
    void hierarchyAnnotations() {
        var r = QueueAdmission.create(queue("""
                metadata:
                  name: q
                  annotations: {volcano.sh/hierarchy: "sci/dev", volcano.sh/hierarchy-weights: "1"}
                """), FRESH);
        assertThat(messages(r))
                .singleElement()
                .asString()
                .isEqualTo(
                        "metadata.annotations.volcano.sh/hierarchy: volcano.sh/hierarchy must have the same length with volcano.sh/hierarchy-weights");
        Queue ok = assertAccepted(QueueAdmission.create(queue("""
                metadata:
                  name: q
                  annotations: {volcano.sh/hierarchy: "sci/dev", volcano.sh/hierarchy-weights: "2/8"}
                """), FRESH));
        assertThat(ok.metadata().annotations())
                .containsEntry("volcano.sh/hierarchy", "root/sci/dev")
                .containsEntry("volcano.sh/hierarchy-weights", "1/2/8");
    }

    @Test
    void creatingAnExistingQueueIsRejected() {
        assertRejected(
                Admission.create(queue("metadata: {name: default}\n"), FRESH),
                "metadata.name: queue \"default\" already exists");
    }
}
