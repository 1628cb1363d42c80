/**
 * Mappings between the topic contract's Avro records and the core's model: pure functions, no
 * Kafka, no registry. The streams-app uses them to read its inputs and write its outputs; other
 * tools (a replay of one job, the CLI) reuse them so that every reader agrees on what a record
 * means. A record that cannot be mapped raises {@link java.lang.IllegalArgumentException} whose
 * message starts with the field path at fault.
 */
package io.lahar.schema.codec;
