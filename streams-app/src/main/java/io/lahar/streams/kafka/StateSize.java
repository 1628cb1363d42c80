package io.lahar.streams.kafka;

import io.lahar.core.admission.Violation;

/**
 * The size bound of one state store value: a changelog record above it would not fit in a Kafka
 * record, so per-object state is checked before it is written, and a command that would leave an
 * object's state over it is refused with the size (a {@link Violation}), never discovered later.
 */
public final class StateSize {

    /** The most one value of a state store may be; a record above it would not fit in the changelog topic. */
    public static final int MAX_BYTES = 900 * 1024;

    private StateSize() {}

    /** A value that would not fit: what it is the state of, its encoded size and the limit it is over. Nothing was written. */
    public static final class TooLarge extends IllegalStateException {
        private final int size;
        private final int limit;

        public TooLarge(String what, int size, int limit) {
            super("state of " + what + " is " + size + " bytes, over the " + limit + "-byte limit"
                    + (limit == MAX_BYTES ? " of one record" : " of its state after a command"));
            this.size = size;
            this.limit = limit;
        }

        public int size() {
            return size;
        }

        public int limit() {
            return limit;
        }

        /**
         * The reason a command is refused, at the path {@code manifest}: the object's state after
         * it would be this size, over the limit a command may leave it at ({@code kept} says what
         * the rest of one record is kept for).
         */
        public Violation violation(String object, String kept) {
            return new Violation(
                    "manifest",
                    "too large: the " + object + "'s state would be " + size
                            + " bytes, over the limit of " + limit
                            + " bytes after a create or an update (one record holds at most "
                            + MAX_BYTES + " bytes; the rest is kept for " + kept + "): make the manifest smaller");
        }
    }

    /** @throws TooLarge when {@code size} is over {@code limit} (at most {@link #MAX_BYTES}) */
    public static void check(String what, int size, int limit) {
        int bound = Math.min(limit, MAX_BYTES);
        if (size > bound) {
            throw new TooLarge(what, size, bound);
        }
    }
}
