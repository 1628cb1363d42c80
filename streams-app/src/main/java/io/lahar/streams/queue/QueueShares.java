package io.lahar.streams.queue;

/**
 * The internal topic that carries the jobs' {@link QueueShare}s from the lifecycle (partitioned
 * by job) to the queue-status aggregation (keyed by queue): one partition, so a single task sees
 * every share of every queue. Values are JSON, readable in a dump; the topic is the app's own,
 * not part of the contract.
 */
public final class QueueShares {

    public static final String TOPIC = "lahar-streams-queue-shares";

    private QueueShares() {
    }

    public static byte[] encode(QueueShare share) {
        return QueueStatusProcessor.write(share);
    }
}
