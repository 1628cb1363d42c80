package io.lahar.scheduler.cache;

import static io.lahar.scheduler.Records.createPod;
import static io.lahar.scheduler.Records.intent;
import static io.lahar.scheduler.Records.node;
import static io.lahar.scheduler.Records.podEvent;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.scheduler.Records;
import io.lahar.scheduler.loop.SessionDecisions;
import io.lahar.schema.Bind;
import io.lahar.schema.Evict;
import io.lahar.schema.PodGroup;
import io.lahar.schema.SchedulerDecision;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The tdm plugin in the running scheduler: a node's {@code volcano.sh/revocable-zone} label, a pod
 * intent's {@code volcano.sh/revocable-zone} annotation and a pod group's disruption budget reach
 * the session from the records, so a revocable job is bound to the lent node inside its zone's
 * window and half its pods there are evicted (its budget) once the window has closed.
 */
class TdmSessionTest {

    private static final SchedulerConf CONF = SchedulerConf.parse(
            SchedulerConf.DEFAULT_YAML
                    .replace("enqueue, allocate, backfill", "enqueue, allocate, backfill, shuffle")
                    .replace(
                            "  - name: conformance\n",
                            "  - name: conformance\n  - name: tdm\n    arguments: {tdm.revocable-zone.rz1: \"10:00-21:00\"}\n"));

    private static final Instant NOON = Instant.parse("2026-11-29T12:00:00Z");
    private static final Instant NIGHT = Instant.parse("2026-11-29T22:00:00Z");

    private final SchedulerCache cache = new SchedulerCache(Set.of("volcano"));
    private final Scheduler scheduler = new Scheduler(CONF);

    private void job(String name, int pods, Map<String, String> groupAnnotations, Map<String, String> podAnnotations) {
        PodGroup g = Records.podGroup("ns", name, "default", 1, "Inqueue", 0);
        g.setAnnotations(groupAnnotations);
        cache.onPodGroup("ns/" + name, Records.roundTrip(g));
        for (int i = 0; i < pods; i++) {
            cache.onPodIntent(
                    "ns/" + name,
                    intent(
                            "ns",
                            name,
                            createPod(name, "w", i, "volcano", "1")
                                    .setAnnotations(podAnnotations)
                                    .build()));
        }
    }

    private List<SchedulerDecision> session(Instant now) {
        Snapshot s = cache.snapshot(now);
        return SessionDecisions.apply(cache, s, scheduler.schedule(s), 1, "s", now)
                .decisions();
    }

    @Test
    void aRevocableJobIsBoundToTheLentNodeInsideTheWindowAndEvictedWithinItsBudgetAfterIt() {
        cache.onNode("lent", node("lent", "4", "8Gi", Map.of("volcano.sh/revocable-zone", "rz1"), List.of()));
        cache.onNode("own", node("own", "4", "8Gi", Map.of(), List.of()));
        cache.onQueue("default", Records.queue("default", 1));
        job("batch", 4, Map.of("volcano.sh/jdb-max-unavailable", "50%"), Map.of("volcano.sh/revocable-zone", "*"));
        job("plain", 2, Map.of(), Map.of());

        List<SchedulerDecision> noon = session(NOON);
        assertThat(noon.stream()
                        .filter(d -> d.getDecision() instanceof Bind)
                        .map(d -> (Bind) d.getDecision())
                        .map(b -> b.getPod() + "@" + b.getNode()))
                .containsExactlyInAnyOrder(
                        "batch-w-0@lent",
                        "batch-w-1@lent",
                        "batch-w-2@lent",
                        "batch-w-3@lent",
                        "plain-w-0@own",
                        "plain-w-1@own");

        for (int i = 0; i < 4; i++) {
            cache.onPodEvent("ns/batch", podEvent("ns", "batch", "batch-w-" + i, "Running", "lent", false));
        }
        for (int i = 0; i < 2; i++) {
            cache.onPodEvent("ns/plain", podEvent("ns", "plain", "plain-w-" + i, "Running", "own", false));
        }
        List<SchedulerDecision> night = session(NIGHT);
        assertThat(night.stream()
                        .filter(d -> d.getDecision() instanceof Evict)
                        .map(d -> ((Evict) d.getDecision()).getPod()))
                .hasSize(2)
                .allMatch(p -> p.startsWith("batch-w-"));
    }
}
