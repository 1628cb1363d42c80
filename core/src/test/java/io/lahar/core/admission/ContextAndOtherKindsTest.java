package io.lahar.core.admission;

import static io.lahar.core.admission.Fixtures.assertAccepted;
import static io.lahar.core.admission.Fixtures.assertRejected;
import static io.lahar.core.admission.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Manifests;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.PriorityClass;
import io.lahar.core.api.Queue;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContextAndOtherKindsTest {

    @Test
    void freshInstallHasRootAndAnOpenLeafDefault() {
        AdmissionContext ctx = AdmissionContext.freshInstall();
        assertThat(ctx.queue("root")).isPresent();
        assertThat(ctx.queue("default").orElseThrow().parentOrRoot()).isEqualTo("root");
        assertThat(ctx.childrenOf("root")).extracting(Queue::name).containsExactly("default");
        assertThat(ctx.childrenOf("default")).isEmpty();
    }

    @Test
    void existingQueuesReplaceTheFreshInstallButRootStays() {
        AdmissionContext ctx = AdmissionContext.of(List.of(queue("metadata: {name: team}\n")));
        assertThat(ctx.queues()).extracting(Queue::name).containsExactlyInAnyOrder("root", "team");
        AdmissionContext noQueues = AdmissionContext.of(List.of(Fixtures.template("t", Fixtures.ONE_TASK)));
        assertThat(noQueues.queue("default")).isPresent();
        assertThat(noQueues.template("default", "t")).isPresent();
    }

    @Test
    void withAndWithoutDoNotChangeTheOriginal() {
        AdmissionContext ctx = AdmissionContext.freshInstall();
        Queue q = AdmissionContext.openQueue("x", "root");
        AdmissionContext more = ctx.with(q);
        assertThat(ctx.queue("x")).isEmpty();
        assertThat(more.queue("x")).contains(q);
        assertThat(more.without(q).queue("x")).isEmpty();
    }

    @Test
    void podGroupsDefaultToTheDefaultQueueAndNeedAnOpenLeaf() {
        PodGroup pg = Manifests.read(
                "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: pg}\n"
                        + "spec: {minMember: 2}\n",
                PodGroup.class);
        assertThat(assertAccepted(PodGroupAdmission.create(pg, AdmissionContext.freshInstall()))
                        .spec()
                        .queue())
                .isEqualTo("default");
        PodGroup bad = Manifests.read(
                "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: pg}\n"
                        + "spec: {minMember: -1, queue: root}\n",
                PodGroup.class);
        assertRejected(
                PodGroupAdmission.create(bad, AdmissionContext.freshInstall()),
                "spec.minMember: must be >= 0",
                "spec.queue: can not submit podgroup to root queue");
    }

    @Test
    void podGroupSubGroupCountsAreBoundedByThePodLimit() {
        PodGroup pg = Manifests.read(
                "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: pg}\n"
                        + "spec: {minMember: 2, subGroupPolicy: [{name: a, subGroupSize: 0, minSubGroups: -1},"
                        + " {name: b, subGroupSize: 100000, minSubGroups: 100000}, {name: c, subGroupSize: 2}]}\n",
                PodGroup.class);
        int max = AdmissionLimits.DEFAULTS.maxPodsPerJob();
        assertRejected(
                PodGroupAdmission.create(pg, AdmissionContext.freshInstall()),
                "spec.subGroupPolicy[0].subGroupSize: must be at least 1, got 0",
                "spec.subGroupPolicy[0].minSubGroups: must not be negative, got -1",
                "spec.subGroupPolicy[1].subGroupSize: must be at most " + max + ", got 100000",
                "spec.subGroupPolicy[1].minSubGroups: must be at most " + max + ", got 100000");
    }

    @Test
    void priorityClasses() {
        PriorityClass tooHigh = Manifests.read(
                "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: p}\n"
                        + "value: 2000000000\npreemptionPolicy: Sometimes\n",
                PriorityClass.class);
        assertRejected(
                PriorityClassAdmission.create(tooHigh, AdmissionContext.empty()),
                "value: must be no greater than 1000000000",
                "preemptionPolicy: unsupported value \"Sometimes\": supported values: \"PreemptLowerPriority\", \"Never\"");
        PriorityClass ok = Manifests.read(
                "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: p}\nvalue: 10\n",
                PriorityClass.class);
        assertAccepted(PriorityClassAdmission.create(ok, AdmissionContext.empty()));
        PriorityClass changed = Manifests.read(
                "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: p}\nvalue: 11\n",
                PriorityClass.class);
        assertRejected(
                PriorityClassAdmission.update(ok, changed, AdmissionContext.empty()), "value: field is immutable");
        PriorityClass never = Manifests.read(
                "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: p}\nvalue: 10\n"
                        + "preemptionPolicy: Never\n",
                PriorityClass.class);
        assertRejected(
                PriorityClassAdmission.update(ok, never, AdmissionContext.empty()),
                "preemptionPolicy: field is immutable");
    }

    @Test
    void priorityClassesAsTheApiServerHoldsThem() {
        PriorityClass system = Manifests.read(
                "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-mine}\n"
                        + "value: 2000000000\n",
                PriorityClass.class);
        assertRejected(
                PriorityClassAdmission.create(system, AdmissionContext.empty()),
                "metadata.name: priority class names with 'system-' prefix are reserved for system use only");
        PriorityClass nodeCritical = Manifests.read(
                "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-node-critical}\n"
                        + "value: 2000001000\n",
                PriorityClass.class);
        assertAccepted(PriorityClassAdmission.create(nodeCritical, AdmissionContext.empty()));

        PriorityClass normal = Manifests.read(
                "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: normal}\n"
                        + "value: 10\nglobalDefault: true\n",
                PriorityClass.class);
        PriorityClass other = Manifests.read(
                "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: other}\n"
                        + "value: 20\nglobalDefault: true\n",
                PriorityClass.class);
        AdmissionContext withDefault = AdmissionContext.empty().with(normal);
        assertRejected(
                PriorityClassAdmission.create(other, withDefault),
                "globalDefault: PriorityClass normal is already marked as default. Only one default can exist");
        assertAccepted(PriorityClassAdmission.update(normal, normal, withDefault));
    }

    @Test
    void updatesMayNotChangeTheKind() {
        assertRejected(
                Admission.update(
                        AdmissionContext.openQueue("q", "root"),
                        Fixtures.job("q", Fixtures.ONE_TASK),
                        AdmissionContext.freshInstall()),
                "kind: may not be changed on update (was Queue, now Job)");
    }

    @Test
    void violationPrintsPathColonMessage() {
        assertThat(new Violation("spec.tasks[1].name", "duplicate task name \"worker\"").toString())
                .isEqualTo("spec.tasks[1].name: duplicate task name \"worker\"");
    }
}
