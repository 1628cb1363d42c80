package io.lahar.console.view;

/**
 * A record the console could not decode: where it is and why. {@code deadLetter} is the reason a
 * Lahar processor gave when it dead-lettered the same record (same topic, partition and offset),
 * or null when none did.
 */
public record Undecodable(
        String topic, int partition, long offset, long timestamp, String key, String error, String deadLetter) {

    Undecodable withDeadLetter(String reason) {
        return new Undecodable(topic, partition, offset, timestamp, key, error, reason);
    }

    String position() {
        return topic + "/" + partition + "@" + offset;
    }
}
