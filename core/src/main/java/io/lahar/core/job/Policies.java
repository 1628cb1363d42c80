package io.lahar.core.job;

import io.lahar.core.api.Action;
import io.lahar.core.api.Event;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.LifecyclePolicy;
import io.lahar.core.api.TaskSpec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Volcano's applyPolicies: which action a request leads to.
 * <ol>
 * <li>a command's action is taken as given;</li>
 * <li>internal events (OutOfSync, CommandIssued, PodRunning) only sync;</li>
 * <li>an event from a pod of an older job version only syncs: that pod belongs to a run the
 * job already left behind;</li>
 * <li>the task's own policies are tried first, in order, then the job's;</li>
 * <li>a policy matches when its {@code event}/{@code events} hold the event or {@code *}, or
 * when its {@code exitCode} equals the pod's exit code; PodPending matches only a policy with a
 * {@code timeout} (a pod is pending for a while by nature);</li>
 * <li>nothing matched: sync.</li>
 * </ol>
 */
public final class Policies {

    private Policies() {}

    public static PolicyMatch resolve(JobSpec spec, Request req, int jobVersion) {
        if (req.action() != null) {
            return new PolicyMatch(req.action(), Duration.ZERO, null);
        }
        if (req.internal()) {
            return PolicyMatch.sync();
        }
        if (req.version() < jobVersion) {
            return PolicyMatch.sync();
        }
        if (req.task() != null) {
            List<TaskSpec> tasks = spec.tasksOrEmpty();
            for (int t = 0; t < tasks.size(); t++) {
                if (req.task().equals(tasks.get(t).name())) {
                    Optional<PolicyMatch> m =
                            firstMatch(tasks.get(t).policiesOrEmpty(), req, "spec.tasks[" + t + "].policies");
                    if (m.isPresent()) {
                        return m.get();
                    }
                    break;
                }
            }
        }
        return firstMatch(spec.policiesOrEmpty(), req, "spec.policies").orElse(PolicyMatch.sync());
    }

    private static Optional<PolicyMatch> firstMatch(List<LifecyclePolicy> policies, Request req, String path) {
        for (int i = 0; i < policies.size(); i++) {
            LifecyclePolicy p = policies.get(i);
            Optional<Action> action = p.actionValue();
            if (action.isEmpty()) {
                continue;
            }
            Duration timeout = p.timeoutDuration().orElse(null);
            List<String> events = p.eventNames();
            if (!events.isEmpty() && (events.contains(req.event().value()) || events.contains(Event.ANY.value()))) {
                boolean pendingWithoutTimeout = req.event() == Event.POD_PENDING && timeout == null;
                if (!pendingWithoutTimeout) {
                    return Optional.of(new PolicyMatch(
                            action.get(), timeout == null ? Duration.ZERO : timeout, path + "[" + i + "]"));
                }
            }
            if (p.exitCode() != null && req.exitCode() != null && p.exitCode().intValue() == req.exitCode()) {
                return Optional.of(
                        new PolicyMatch(action.get(), timeout == null ? Duration.ZERO : timeout, path + "[" + i + "]"));
            }
        }
        return Optional.empty();
    }
}
