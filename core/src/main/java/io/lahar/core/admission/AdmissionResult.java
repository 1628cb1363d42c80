package io.lahar.core.admission;

import java.util.List;
import java.util.function.Function;

/**
 * The outcome of admission: the accepted object with its defaults applied, or every violation
 * found (never only the first) up to {@link #MAX_VIOLATIONS}, then how many more there were: a
 * manifest of thousands of bad entries must not make an answer too large to send.
 */
public record AdmissionResult<T>(T object, List<Violation> violations) {

    public static final int MAX_VIOLATIONS = 100;

    public AdmissionResult {
        if (violations.size() > MAX_VIOLATIONS) {
            List<Violation> kept = new java.util.ArrayList<>(violations.subList(0, MAX_VIOLATIONS));
            kept.add(new Violation("", "... and " + (violations.size() - MAX_VIOLATIONS) + " more violations"));
            violations = kept;
        }
        violations = List.copyOf(violations);
        if (violations.isEmpty() == (object == null)) {
            throw new IllegalArgumentException("an admission result is either an object or violations");
        }
    }

    public static <T> AdmissionResult<T> accept(T object) {
        return new AdmissionResult<>(object, List.of());
    }

    public static <T> AdmissionResult<T> reject(List<Violation> violations) {
        return new AdmissionResult<>(null, violations);
    }

    /** Accepts {@code object} when {@code violations} is empty, else rejects with them. */
    public static <T> AdmissionResult<T> of(T object, List<Violation> violations) {
        return violations.isEmpty() ? accept(object) : reject(violations);
    }

    public boolean accepted() {
        return violations.isEmpty();
    }

    public <U> AdmissionResult<U> map(Function<? super T, ? extends U> f) {
        return accepted() ? accept(f.apply(object)) : reject(violations);
    }
}
