package io.lahar.cli.replay;

/**
 * One record of the job's input topics, as read back from the log: where it was, its record
 * timestamp (what Kafka Streams orders by), its key and its decoded value (null if it did not decode).
 */
public record ReplayInput(String topic, int partition, long offset, long timestamp, String key, Object value) {

    public String coordinates() {
        return topic + "/" + partition + "@" + offset;
    }
}
