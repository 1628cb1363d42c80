package io.lahar.core.scheduling.plugins;

import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.Functions.VictimFn;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.ArrayList;
import java.util.List;

/**
 * Volcano's conformance plugin: critical pods are never victims — those in {@code kube-system} and
 * those at the system-cluster-critical / system-node-critical priorities (two billion and above).
 */
public final class Conformance implements Plugin {
    public static final String NAME = "conformance";
    /** The value of Kubernetes' system-cluster-critical priority class. */
    public static final int SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

    public Conformance(Arguments args) {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onSessionOpen(Session ssn) {
        VictimFn notCritical = (preemptor, preemptees) -> {
            List<SessionTask> victims = new ArrayList<>();
            for (SessionTask t : preemptees) {
                if (!"kube-system".equals(t.job().info().namespace()) && t.priority() < SYSTEM_CRITICAL_PRIORITY) {
                    victims.add(t);
                }
            }
            return victims;
        };
        ssn.addPreemptableFn(NAME, notCritical);
        ssn.addReclaimableFn(NAME, notCritical);
    }
}
