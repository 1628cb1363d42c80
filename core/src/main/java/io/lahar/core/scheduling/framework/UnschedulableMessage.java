package io.lahar.core.scheduling.framework;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reason a pod group stays pending, built from everything the session learned about it:
 * {@code 3/5 tasks in gang unschedulable: only 2 of minMember 5 tasks fit; task worker: 0/10 nodes
 * are available: 7 Insufficient cpu (need 4, largest free 2 on node-7), 3 node(s) didn't match node
 * selector; queue "research" over its capability}.
 */
final class UnschedulableMessage {
    private UnschedulableMessage() {}

    static String of(SessionJob j) {
        List<String> parts = new ArrayList<>();
        if (!j.problems().isEmpty()) {
            parts.add("invalid pod group: " + String.join(", ", j.problems()));
        }
        parts.addAll(j.reasons());
        if (!j.isValid() && j.problems().isEmpty()) {
            List<String> roles = j.unmetRoles(false, true);
            if (!roles.isEmpty()) parts.add("minTaskMember not reachable: " + String.join(", ", roles));
            List<String> groups = j.unmetSubGroups(null);
            if (!groups.isEmpty()) parts.add("minSubGroups not reachable: " + String.join(", ", groups));
        }
        int placed = j.placeableInLastAttempt();
        if (placed >= 0 && !j.isReady()) {
            parts.add("only " + placed + " of minMember " + j.minMember() + " tasks could be placed");
        }
        if (j.waitingTaskNum() > 0) {
            parts.add(j.waitingTaskNum() + " task(s) pipelined, waiting for evicted pods to release their nodes");
        }
        // One line per task role: tasks of a role usually fail alike, and a role is what a user edits.
        Map<String, String> byRole = new LinkedHashMap<>();
        for (Map.Entry<SessionTask, FitErrors> e : j.fitErrors().entrySet()) {
            String role = e.getKey().info().role().isEmpty()
                    ? e.getKey().name()
                    : e.getKey().info().role();
            byRole.putIfAbsent(role, e.getValue().toString());
        }
        byRole.forEach((role, msg) -> parts.add("task " + role + ": " + msg));
        if (j.isValid() && !j.isReady()) {
            List<String> roles = j.unmetRoles(true, false);
            if (!roles.isEmpty() && j.minMemberPipelined()) {
                parts.add("minTaskMember not met: " + String.join(", ", roles));
            }
            List<String> groups = j.unmetSubGroups(true);
            if (!groups.isEmpty() && j.minMemberPipelined()) {
                parts.add("partitions placed whole below minSubGroups: " + String.join(", ", groups));
            }
        }
        if (parts.isEmpty()) {
            parts.add(
                    switch (j.phase()) {
                        case Pending -> "pod group is pending, not yet admitted to its queue";
                        case Inqueue -> "pod group is waiting for resources";
                        default -> "pod group is not ready";
                    });
        }
        int unready = Math.max(0, j.minMember() - j.readyTaskNum());
        if (j.isReady()) {
            unready = j.pendingTaskNum();
        }
        // Volcano divides by the tasks it knows; before the pods exist that is 0 ("2/0 tasks"), so
        // the gang's size says it better.
        int known = j.tasks().isEmpty() ? j.minMember() : j.tasks().size();
        return unready + "/" + known + " tasks in gang unschedulable: " + String.join("; ", parts);
    }
}
