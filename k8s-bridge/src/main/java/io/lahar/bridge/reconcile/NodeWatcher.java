package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lahar.bridge.mapping.NodeRecords;
import io.lahar.schema.Topics;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/** Node inventory for the scheduler: every node as a record on the compacted nodes topic; a removed node as a tombstone. */
public final class NodeWatcher implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(NodeWatcher.class);

    private final KubernetesClient client;
    private final RecordSink sink;
    private final Clock clock;
    private final long resyncMillis;
    /** node → last record sent, time left out, so heartbeats that change nothing the scheduler reads send nothing. */
    private final Map<String, io.lahar.schema.Node> reported = new ConcurrentHashMap<>();

    private SharedIndexInformer<Node> informer;

    /** @param resyncMillis how often every node is replayed (0: never), which re-sends a record whose send failed */
    public NodeWatcher(KubernetesClient client, RecordSink sink, Clock clock, long resyncMillis) {
        this.resyncMillis = resyncMillis;
        this.client = client;
        this.sink = sink;
        this.clock = clock;
    }

    public NodeWatcher start() {
        informer = Informers.inform(
                client.nodes(),
                new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Node node) {
                        upsert(node);
                    }

                    @Override
                    public void onUpdate(Node old, Node node) {
                        upsert(node);
                    }

                    @Override
                    public void onDelete(Node node, boolean finalStateUnknown) {
                        String name = node.getMetadata().getName();
                        try {
                            sink.send(Topics.NODES.name(), name, null);
                            reported.remove(name);
                        } catch (RuntimeException e) {
                            LOG.errorf(e, "node %s: tombstone not sent", name);
                        }
                    }
                },
                resyncMillis);
        return this;
    }

    private void upsert(Node node) {
        String name = node.getMetadata().getName();
        try {
            io.lahar.schema.Node record = NodeRecords.node(node, clock.instant());
            io.lahar.schema.Node timeless = io.lahar.schema.Node.newBuilder(record)
                    .setTime(java.time.Instant.EPOCH)
                    .build();
            if (Objects.equals(reported.get(name), timeless)) {
                return;
            }
            sink.send(Topics.NODES.name(), name, record);
            reported.put(name, timeless);
        } catch (RuntimeException e) {
            LOG.errorf(e, "node %s: record not sent", name);
        }
    }

    @Override
    public void close() {
        if (informer != null) {
            informer.close();
        }
    }
}
