/**
 * The one dead-letter path of every Lahar service: which failures are an outage to wait out
 * ({@link io.lahar.schema.deadletter.Failures}) and which make a record poison, the rules every
 * input record is held to ({@link io.lahar.schema.deadletter.InputRecords}: a key, no tombstone on
 * a topic that has none, the key naming the record's own object), and the {@code DeadLetter} record
 * with its reason ({@link io.lahar.schema.deadletter.DeadLetters}). Plain Kafka and Avro, no
 * Quarkus: the streams-app, the scheduler-service and the k8s-bridge each send the letters their
 * own way (a Kafka Streams sink, the scheduler's transaction, the bridge's producer).
 */
package io.lahar.schema.deadletter;
