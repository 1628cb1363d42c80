package io.lahar.streams.rest;

import static io.lahar.streams.rest.Answers.enc;

import io.lahar.schema.Topics;

/**
 * One object of a kind: its key in the kind's store and its path under the kind's collection
 * ({@code /api/v1/<plural>/NS/NAME}). A read forwarded to the owner asks it for this path and a
 * created object's {@code Location} is this path, so both are made in one place for every kind.
 */
record ObjectAddress(String collection, String namespace, String name) {

    String key() {
        return Topics.jobKey(namespace, name);
    }

    /** The path segments encoded. */
    String path() {
        return collection + "/" + enc(namespace) + "/" + enc(name);
    }
}
