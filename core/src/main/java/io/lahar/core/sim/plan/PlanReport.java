package io.lahar.core.sim.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.lahar.core.api.Manifests;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.Problem;
import java.util.List;

/**
 * What {@code lahar plan} prints: where each pod ends up and which action put it there, every
 * eviction on the way, each pod group's phase and why, and each queue's share.
 *
 * @param sessions  how many sessions ran
 * @param converged whether the last session changed nothing (false when --sessions cut it short
 *                  or the session limit was reached)
 * @param problems  what the scheduler skipped as invalid (not printed in the YAML; the CLI warns)
 */
@JsonPropertyOrder({"sessions", "converged", "bindings", "podGroups", "queues", "evictions"})
public record PlanReport(
        int sessions,
        boolean converged,
        List<Binding> bindings,
        List<PodGroupStatus> podGroups,
        List<QueueStatus> queues,
        List<Eviction> evictions,
        @com.fasterxml.jackson.annotation.JsonIgnore List<Problem> problems) {

    public PlanReport {
        bindings = List.copyOf(bindings);
        podGroups = List.copyOf(podGroups);
        queues = List.copyOf(queues);
        evictions = List.copyOf(evictions);
        problems = List.copyOf(problems);
    }

    /** A pod placed by the plan and still on its node at the end. */
    @JsonPropertyOrder({"namespace", "pod", "node", "action"})
    public record Binding(String namespace, String pod, String node, String action) {}

    /**
     * A pod group at the end of the plan. A job admission rejected has phase {@code Rejected},
     * reason {@code AdmissionRejected} and its violations in {@code errors}.
     */
    @JsonPropertyOrder({"namespace", "name", "phase", "reason", "message", "errors"})
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record PodGroupStatus(
            String namespace, String name, String phase, String reason, String message, List<String> errors) {}

    /**
     * A queue: its state in effect (Closing while a closed queue still has pod groups), what its
     * pods hold, and what the queue plugin enforces — its name, the deserved share and the real
     * capability (absent without proportion or capacity) — and the queue's guarantee (absent when none).
     */
    @JsonPropertyOrder({"name", "state", "deserved", "allocated", "capability", "guarantee", "plugin"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record QueueStatus(
            String name,
            String state,
            Resource deserved,
            Resource allocated,
            Resource capability,
            Resource guarantee,
            String plugin) {}

    /** A pod evicted by preempt or reclaim, in the session it happened. */
    @JsonPropertyOrder({"namespace", "pod", "node", "action", "reason", "session"})
    public record Eviction(String namespace, String pod, String node, String action, String reason, int session) {}

    public String toYaml() {
        return Manifests.toYaml(this);
    }
}
