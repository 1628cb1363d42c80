package io.lahar.core.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each wither replaces its own component and keeps every other one: every component holds a
 * distinct value, so a copy that drops or swaps one (several are of the same type) is seen.
 */
class WithersTest {

    private static ObjectNode node(String key) {
        return JsonNodeFactory.instance.objectNode().put(key, key);
    }

    /** {@code after} holds {@code changed} and, untouched, every other component of {@code before}. */
    private static void assertChangesOnly(Record before, Record after, Map<String, Object> changed) throws Exception {
        for (RecordComponent c : before.getClass().getRecordComponents()) {
            Object was = c.getAccessor().invoke(before);
            Object now = c.getAccessor().invoke(after);
            assertThat(was).as("fixture's %s", c.getName()).isNotNull();
            if (changed.containsKey(c.getName())) {
                assertThat(now).as(c.getName()).isEqualTo(changed.get(c.getName()));
            } else {
                assertThat(now).as(c.getName()).isSameAs(was);
            }
        }
    }

    @Test
    void jobSpecWithersChangeOnlyTheirComponent() throws Exception {
        JobSpec s = new JobSpec(
                "sched",
                1,
                List.of(new VolumeSpec("/a", "claim", null)),
                List.of(new TaskSpec("t", 1, null, null, null, null, null, null, null)),
                List.of(LifecyclePolicy.onEvent(Event.POD_FAILED, Action.RESTART_JOB)),
                Map.of("svc", List.of()),
                "1h",
                "q",
                2,
                3,
                "high",
                4,
                new NetworkTopologySpec("hard", 1, null));
        List<VolumeSpec> volumes = List.of(new VolumeSpec("/b", null, null));
        List<TaskSpec> tasks = List.of(new TaskSpec("u", 2, null, null, null, null, null, null, null));
        List<LifecyclePolicy> policies = List.of(LifecyclePolicy.onExitCode(3, Action.ABORT_JOB));
        Map<String, List<String>> plugins = Map.of("env", List.of());

        assertChangesOnly(s, s.withSchedulerName("other"), Map.of("schedulerName", "other"));
        assertChangesOnly(s, s.withMinAvailable(9), Map.of("minAvailable", 9));
        assertChangesOnly(s, s.withVolumes(volumes), Map.of("volumes", volumes));
        assertChangesOnly(s, s.withTasks(tasks), Map.of("tasks", tasks));
        assertChangesOnly(s, s.withPolicies(policies), Map.of("policies", policies));
        assertChangesOnly(s, s.withPlugins(plugins), Map.of("plugins", plugins));
        assertChangesOnly(s, s.withQueue("r"), Map.of("queue", "r"));
        assertChangesOnly(s, s.withMaxRetry(9), Map.of("maxRetry", 9));
        assertChangesOnly(s, s.withPriorityClassName("low"), Map.of("priorityClassName", "low"));
    }

    @Test
    void objectMetaWithersChangeOnlyTheirComponent() throws Exception {
        ObjectMeta m = new ObjectMeta(
                "n",
                "g-",
                "ns",
                "uid",
                "7",
                3L,
                "t0",
                "t1",
                Map.of("l", "1"),
                Map.of("a", "1"),
                List.of(new OwnerReference("v1", "Job", "o", "ou", true, false)),
                List.of("f"));
        List<OwnerReference> refs = List.of(new OwnerReference("v1", "Flow", "p", "pu", false, true));

        assertChangesOnly(m, m.withName("x"), Map.of("name", "x"));
        assertChangesOnly(m, m.withNamespace("y"), Map.of("namespace", "y"));
        assertChangesOnly(m, m.withLabels(Map.of("l", "2")), Map.of("labels", Map.of("l", "2")));
        assertChangesOnly(m, m.withAnnotations(Map.of("a", "2")), Map.of("annotations", Map.of("a", "2")));
        assertChangesOnly(m, m.withOwnerReferences(refs), Map.of("ownerReferences", refs));
    }

    @Test
    void queueSpecWithersChangeOnlyTheirComponent() throws Exception {
        Queue.QueueSpec s = new Queue.QueueSpec(
                1,
                Map.of("cpu", "8"),
                true,
                false,
                "p",
                new Queue.Guarantee(Map.of("cpu", "1")),
                Map.of("cpu", "4"),
                node("aff"),
                "t",
                List.of(node("c")),
                5);

        assertChangesOnly(s, s.withWeight(2), Map.of("weight", 2));
        assertChangesOnly(s, s.withReclaimable(false), Map.of("reclaimable", false));
        assertChangesOnly(s, s.withParent("q"), Map.of("parent", "q"));
    }

    @Test
    void taskSpecWithersChangeOnlyTheirComponent() throws Exception {
        TaskSpec t = new TaskSpec(
                "t",
                1,
                2,
                node("pod"),
                List.of(LifecyclePolicy.onEvent(Event.POD_EVICTED, Action.RESTART_TASK)),
                "single",
                3,
                new TaskDependsOn(List.of("a"), "All"),
                new PartitionPolicy(2, 3, 1, null));

        assertChangesOnly(t, t.withName("u"), Map.of("name", "u"));
        assertChangesOnly(t, t.withReplicas(7), Map.of("replicas", 7));
        assertChangesOnly(t, t.withMinAvailable(8), Map.of("minAvailable", 8));
        assertChangesOnly(t, t.withTemplate(node("other")), Map.of("template", node("other")));
        assertChangesOnly(t, t.withMaxRetry(9), Map.of("maxRetry", 9));
    }

    @Test
    void cronJobSpecWithersChangeOnlyTheirComponent() throws Exception {
        CronJob.JobTemplateSpec other = new CronJob.JobTemplateSpec(ObjectMeta.named("k"), null);
        CronJob.CronJobSpec s = new CronJob.CronJobSpec(
                "* * * * *",
                "UTC",
                60L,
                "Forbid",
                true,
                new CronJob.JobTemplateSpec(ObjectMeta.named("j"), null),
                3,
                1);

        assertChangesOnly(s, s.withTimeZone("Europe/Paris"), Map.of("timeZone", "Europe/Paris"));
        assertChangesOnly(s, s.withConcurrencyPolicy("Replace"), Map.of("concurrencyPolicy", "Replace"));
        assertChangesOnly(s, s.withSuspend(false), Map.of("suspend", false));
        assertChangesOnly(s, s.withJobTemplate(other), Map.of("jobTemplate", other));
        assertChangesOnly(
                s, s.withHistoryLimits(5, 6), Map.of("successfulJobsHistoryLimit", 5, "failedJobsHistoryLimit", 6));
    }
}
