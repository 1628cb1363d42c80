package io.lahar.streams.rest;

import static io.lahar.streams.rest.Answers.blank;

import java.util.Comparator;
import java.util.function.Predicate;

/**
 * A row of a kind's list ({@code GET /api/v1/<plural>}). Every kind's list narrows to a namespace
 * and sorts by namespace, then name, the same way, so that clients see every list alike; the rows
 * name themselves through this so that the rule is written once.
 */
interface ListedObject {

    String namespace();

    String name();

    /** Every row when {@code namespace} is blank, else the rows in it. */
    static <R extends ListedObject> Predicate<R> inNamespace(String namespace) {
        return r -> blank(namespace) || namespace.equals(r.namespace());
    }

    /** By namespace, then name. */
    static <R extends ListedObject> Comparator<R> order() {
        return Comparator.<R, String>comparing(ListedObject::namespace).thenComparing(ListedObject::name);
    }
}
