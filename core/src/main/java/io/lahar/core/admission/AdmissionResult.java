package io.lahar.core.admission;

import java.util.List;
import java.util.function.Function;

/**
 * The outcome of admission: the accepted object with its defaults applied, or every violation
 * found (never only the first).
 */
public record AdmissionResult<T>(T object, List<Violation> violations) {

    public AdmissionResult {
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
