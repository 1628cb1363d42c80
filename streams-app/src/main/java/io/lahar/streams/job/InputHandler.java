package io.lahar.streams.job;

/**
 * Handles the records of one input topic of the job lifecycle. A record that cannot be decoded
 * or processed throws; the processor then sends it to the dead-letter topic and goes on.
 */
interface InputHandler {

    void handle(String key, byte[] value, long timestamp);
}
