package io.lahar.core.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/** scheduling.volcano.sh/v1beta1 Queue: a weighted, optionally capped share of the cluster. */
public record Queue(String apiVersion, String kind, ObjectMeta metadata, QueueSpec spec, QueueStatus status)
        implements Manifest {

    public static final String API_VERSION = "scheduling.volcano.sh/v1beta1";
    public static final String KIND = "Queue";
    public static final String ROOT = "root";
    public static final String DEFAULT = "default";

    public Queue withSpec(QueueSpec newSpec) {
        return new Queue(apiVersion, kind, metadata, newSpec, status);
    }

    public Queue withStatus(QueueStatus newStatus) {
        return new Queue(apiVersion, kind, metadata, spec, newStatus);
    }

    /** The queue's parent: spec.parent, or {@code root} for every queue but root itself. */
    public String parentOrRoot() {
        if (ROOT.equals(name())) {
            return "";
        }
        return spec == null || spec.parent() == null || spec.parent().isEmpty() ? ROOT : spec.parent();
    }

    /** The queue's state, Open when not recorded (Volcano's controller opens new queues). */
    public QueueState stateOrOpen() {
        return status == null || status.state() == null
                ? QueueState.Open
                : QueueState.of(status.state()).orElse(QueueState.Unknown);
    }

    /** Quantities are kept as strings ("8", "500m", "16Gi"); see {@link Quantity}. */
    public record QueueSpec(
            Integer weight,
            Map<String, String> capability,
            Boolean reclaimable,
            Boolean preemptable,
            String parent,
            Guarantee guarantee,
            Map<String, String> deserved,
            ObjectNode affinity,
            String type,
            List<ObjectNode> extendClusters,
            Integer priority) {

        public QueueSpec withWeight(Integer v) {
            Draft d = new Draft(this);
            d.weight = v;
            return d.done();
        }

        public QueueSpec withReclaimable(Boolean v) {
            Draft d = new Draft(this);
            d.reclaimable = v;
            return d.done();
        }

        public QueueSpec withParent(String v) {
            Draft d = new Draft(this);
            d.parent = v;
            return d.done();
        }

        /**
         * A changing copy of a spec: each wither above changes one of the eleven components, so
         * each names only that one and this class copies the rest.
         */
        private static final class Draft {
            private Integer weight;
            private final Map<String, String> capability;
            private Boolean reclaimable;
            private final Boolean preemptable;
            private String parent;
            private final Guarantee guarantee;
            private final Map<String, String> deserved;
            private final ObjectNode affinity;
            private final String type;
            private final List<ObjectNode> extendClusters;
            private final Integer priority;

            Draft(QueueSpec s) {
                weight = s.weight;
                capability = s.capability;
                reclaimable = s.reclaimable;
                preemptable = s.preemptable;
                parent = s.parent;
                guarantee = s.guarantee;
                deserved = s.deserved;
                affinity = s.affinity;
                type = s.type;
                extendClusters = s.extendClusters;
                priority = s.priority;
            }

            QueueSpec done() {
                return new QueueSpec(
                        weight,
                        capability,
                        reclaimable,
                        preemptable,
                        parent,
                        guarantee,
                        deserved,
                        affinity,
                        type,
                        extendClusters,
                        priority);
            }
        }
    }

    public record Guarantee(Map<String, String> resource) {}

    public record QueueStatus(
            String state,
            Integer unknown,
            Integer pending,
            Integer running,
            Integer inqueue,
            Integer completed,
            Map<String, String> allocated,
            Reservation reservation) {

        public static QueueStatus of(QueueState state) {
            return new QueueStatus(state.name(), null, null, null, null, null, null, null);
        }
    }

    public record Reservation(List<String> nodes, Map<String, String> resource) {}
}
