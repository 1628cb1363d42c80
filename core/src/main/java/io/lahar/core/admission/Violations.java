package io.lahar.core.admission;

import java.util.ArrayList;
import java.util.List;

/** Collects violations in the order the checks find them. */
final class Violations {

    private final List<Violation> list = new ArrayList<>();

    void add(String path, String message) {
        list.add(new Violation(path, message));
    }

    void addAll(List<Violation> more) {
        list.addAll(more);
    }

    boolean isEmpty() {
        return list.isEmpty();
    }

    int size() {
        return list.size();
    }

    List<Violation> list() {
        return List.copyOf(list);
    }
}
