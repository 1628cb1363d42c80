package io.lahar.core.resource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongBinaryOperator;

/**
 * An immutable amount of compute resources, as Volcano's {@code api.Resource}: milli-cpu, memory in
 * bytes, a pod count, and scalar resources (extended resources such as {@code nvidia.com/gpu},
 * {@code ephemeral-storage}, hugepages) counted in thousandths like Volcano does, so fractional
 * quantities stay exact.
 *
 * <p>{@link #UNLIMITED} ({@code Long.MAX_VALUE}) in a dimension means "no limit"; arithmetic saturates
 * there, so a queue capability that does not name cpu stays unlimited however much is added.
 */
public final class Resource {

    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";
    public static final String PODS = "pods";
    public static final long UNLIMITED = Long.MAX_VALUE;

    public static final Resource EMPTY = new Resource(0, 0, 0, Map.of());

    private final long milliCpu;
    private final long memory;
    private final long pods;
    private final Map<String, Long> scalars; // sorted, no zero entries, milli-units

    private Resource(long milliCpu, long memory, long pods, Map<String, Long> scalars) {
        this.milliCpu = milliCpu;
        this.memory = memory;
        this.pods = pods;
        this.scalars = scalars;
    }

    /** A resource of cpu (milli), memory (bytes) and no pods or scalars. */
    public static Resource of(long milliCpu, long memory) {
        return new Resource(milliCpu, memory, 0, Map.of());
    }

    public static Resource of(long milliCpu, long memory, long pods) {
        return new Resource(milliCpu, memory, pods, Map.of());
    }

    public static Resource of(long milliCpu, long memory, long pods, Map<String, Long> scalarMillis) {
        return new Resource(milliCpu, memory, pods, normalise(scalarMillis));
    }

    /**
     * Parses a Kubernetes resource list ({@code {cpu: "500m", memory: "1Gi", nvidia.com/gpu: 1}}).
     *
     * @throws IllegalArgumentException naming every bad entry by its key
     */
    public static Resource parse(Map<String, ?> quantities) {
        if (quantities == null || quantities.isEmpty()) {
            return EMPTY;
        }
        long cpu = 0;
        long mem = 0;
        long pods = 0;
        Map<String, Long> scalars = new TreeMap<>();
        List<String> errors = new ArrayList<>();
        for (Map.Entry<String, ?> e : new TreeMap<String, Object>(quantities).entrySet()) {
            String name = e.getKey();
            try {
                Object raw = e.getValue();
                Quantity q = raw instanceof Number n
                        ? Quantity.parse(n.toString())
                        : Quantity.parse(raw == null ? null : raw.toString());
                if (q.isNegative()) {
                    errors.add(name + ": must not be negative, got " + q);
                    continue;
                }
                switch (name) {
                    case CPU -> cpu = q.milliValue();
                    case MEMORY -> mem = q.value();
                    case PODS -> pods = q.value();
                    default -> scalars.put(name, q.milliValue());
                }
            } catch (QuantityFormatException ex) {
                errors.add(name + ": " + ex.getMessage());
            }
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", errors));
        }
        return new Resource(cpu, mem, pods, normalise(scalars));
    }

    /**
     * Parses a limit such as a queue capability: a dimension the list does not name is unlimited
     * (cpu, memory and pods become {@link #UNLIMITED}; an unnamed scalar is not compared by
     * {@link #lessEqualWithDimension}).
     */
    public static Resource parseLimit(Map<String, ?> quantities) {
        Resource r = parse(quantities);
        boolean hasCpu = quantities != null && quantities.containsKey(CPU);
        boolean hasMem = quantities != null && quantities.containsKey(MEMORY);
        boolean hasPods = quantities != null && quantities.containsKey(PODS);
        return new Resource(
                hasCpu ? r.milliCpu : UNLIMITED,
                hasMem ? r.memory : UNLIMITED,
                hasPods ? r.pods : UNLIMITED,
                r.scalars);
    }

    /** The limit that limits nothing. */
    public static Resource unlimited() {
        return new Resource(UNLIMITED, UNLIMITED, UNLIMITED, Map.of());
    }

    private static Map<String, Long> normalise(Map<String, Long> in) {
        if (in == null || in.isEmpty()) {
            return Map.of();
        }
        TreeMap<String, Long> out = new TreeMap<>();
        in.forEach((k, v) -> {
            if (v != null && v != 0) {
                out.put(k, v);
            }
        });
        return out.isEmpty() ? Map.of() : Collections.unmodifiableMap(out);
    }

    public long milliCpu() {
        return milliCpu;
    }

    public long memory() {
        return memory;
    }

    public long pods() {
        return pods;
    }

    /** Scalar resources in thousandths of a unit, sorted by name, zero entries left out. */
    public Map<String, Long> scalars() {
        return scalars;
    }

    /** The amount of one dimension (milli for cpu and scalars, bytes for memory, count for pods). */
    public long get(String name) {
        return switch (name) {
            case CPU -> milliCpu;
            case MEMORY -> memory;
            case PODS -> pods;
            default -> scalars.getOrDefault(name, 0L);
        };
    }

    /** The names this resource has a non-zero amount of, cpu and memory first, then scalars, then pods. */
    public Set<String> names() {
        Set<String> names = new java.util.LinkedHashSet<>();
        if (milliCpu != 0) names.add(CPU);
        if (memory != 0) names.add(MEMORY);
        names.addAll(scalars.keySet());
        if (pods != 0) names.add(PODS);
        return names;
    }

    public Resource add(Resource o) {
        return combine(o, Resource::saturatingAdd);
    }

    /** Subtracts exactly; a dimension may go negative (callers that must not check lessEqual first). */
    public Resource sub(Resource o) {
        return combine(o, Resource::saturatingSub);
    }

    /** Subtracts, flooring every dimension at zero. */
    public Resource subClamped(Resource o) {
        return combine(o, (a, b) -> Math.max(0, saturatingSub(a, b)));
    }

    public Resource min(Resource o) {
        return combine(o, Math::min);
    }

    /**
     * The minimum against a limit that names only some scalars: a scalar the limit does not name is
     * unlimited, so it is kept as it is.
     */
    public Resource minWithDimension(Resource limit) {
        Map<String, Long> s = new TreeMap<>(scalars);
        limit.scalars.forEach((k, v) -> s.put(k, Math.min(v, scalars.getOrDefault(k, 0L))));
        return new Resource(
                Math.min(milliCpu, limit.milliCpu),
                Math.min(memory, limit.memory),
                Math.min(pods, limit.pods),
                normalise(s));
    }

    public Resource max(Resource o) {
        return combine(o, Math::max);
    }

    /** Every dimension times a factor, rounded down (the overcommit factor scales idle resources). */
    public Resource multiply(double factor) {
        Map<String, Long> s = new TreeMap<>();
        scalars.forEach((k, v) -> s.put(k, scale(v, factor)));
        return new Resource(scale(milliCpu, factor), scale(memory, factor), scale(pods, factor), normalise(s));
    }

    private static long scale(long v, double f) {
        if (v == UNLIMITED) {
            return UNLIMITED;
        }
        double r = Math.floor(v * f);
        return r >= UNLIMITED ? UNLIMITED : (long) r;
    }

    private Resource combine(Resource o, LongBinaryOperator op) {
        Map<String, Long> s;
        if (o.scalars.isEmpty()) {
            s = againstNone(scalars, op, true);
        } else if (scalars.isEmpty()) {
            s = againstNone(o.scalars, op, false);
        } else {
            TreeMap<String, Long> m = new TreeMap<>();
            for (String k : scalarUnion(o)) {
                m.put(k, op.applyAsLong(scalars.getOrDefault(k, 0L), o.scalars.getOrDefault(k, 0L)));
            }
            s = normalise(m);
        }
        return new Resource(
                op.applyAsLong(milliCpu, o.milliCpu),
                op.applyAsLong(memory, o.memory),
                op.applyAsLong(pods, o.pods),
                s);
    }

    /**
     * The scalars of one side combined with none of the other ({@code op(v, 0)}, or {@code op(0, v)}
     * when the side is the right one): the side's own map when no amount changes, as adding or
     * subtracting a request without scalars from a node's scalars, which the scheduler does for
     * every task at every session.
     */
    private static Map<String, Long> againstNone(Map<String, Long> side, LongBinaryOperator op, boolean left) {
        TreeMap<String, Long> changed = null;
        for (Map.Entry<String, Long> e : side.entrySet()) {
            long v = e.getValue();
            long r = left ? op.applyAsLong(v, 0L) : op.applyAsLong(0L, v);
            if (r != v && changed == null) {
                changed = new TreeMap<>(side);
            }
            if (changed != null) {
                changed.put(e.getKey(), r);
            }
        }
        return changed == null ? side : normalise(changed);
    }

    private Set<String> scalarUnion(Resource o) {
        Set<String> keys = new TreeSet<>(scalars.keySet());
        keys.addAll(o.scalars.keySet());
        return keys;
    }

    private static long saturatingAdd(long a, long b) {
        if (a == UNLIMITED || b == UNLIMITED) {
            return UNLIMITED;
        }
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? (r < 0 ? UNLIMITED : Long.MIN_VALUE) : r;
    }

    private static long saturatingSub(long a, long b) {
        if (a == UNLIMITED) {
            return UNLIMITED;
        }
        if (b == UNLIMITED) {
            return Long.MIN_VALUE;
        }
        return a - b;
    }

    /** True when every dimension of this is at most the other's (a missing scalar counts as zero). */
    public boolean lessEqual(Resource o) {
        if (milliCpu > o.milliCpu || memory > o.memory || pods > o.pods) {
            return false;
        }
        for (Map.Entry<String, Long> e : scalars.entrySet()) {
            if (e.getValue() > o.scalars.getOrDefault(e.getKey(), 0L)) {
                return false;
            }
        }
        return true;
    }

    /** This request fits in the free resources given. */
    public boolean fitsIn(Resource free) {
        return lessEqual(free);
    }

    /**
     * Compares against a limit that names only some scalars: a scalar the limit does not name is
     * unlimited (Volcano's LessEqualWithDimension for capabilities).
     */
    public boolean lessEqualWithDimension(Resource limit) {
        if (milliCpu > limit.milliCpu || memory > limit.memory || pods > limit.pods) {
            return false;
        }
        for (Map.Entry<String, Long> e : scalars.entrySet()) {
            Long l = limit.scalars.get(e.getKey());
            if (l != null && e.getValue() > l) {
                return false;
            }
        }
        return true;
    }

    /** The dimensions in which this exceeds the other (missing scalars count as zero), in names() order. */
    public List<String> exceeding(Resource o) {
        return exceeding(o, false);
    }

    /** As {@link #exceeding} but a scalar the limit does not name is unlimited. */
    public List<String> exceedingWithDimension(Resource limit) {
        return exceeding(limit, true);
    }

    private List<String> exceeding(Resource o, boolean onlyNamedScalars) {
        List<String> out = new ArrayList<>(2);
        if (milliCpu > o.milliCpu) out.add(CPU);
        if (memory > o.memory) out.add(MEMORY);
        for (Map.Entry<String, Long> e : scalars.entrySet()) {
            Long l = o.scalars.get(e.getKey());
            if (l == null && onlyNamedScalars) {
                continue;
            }
            if (e.getValue() > (l == null ? 0L : l)) out.add(e.getKey());
        }
        if (pods > o.pods) out.add(PODS);
        return out;
    }

    /** True when no dimension holds anything (a best-effort request). */
    public boolean isEmpty() {
        return milliCpu == 0 && memory == 0 && pods == 0 && scalars.isEmpty();
    }

    /** True when no cpu, memory or scalar is requested (pods are not a request: best-effort tasks). */
    public boolean isBestEffort() {
        return milliCpu == 0 && memory == 0 && scalars.isEmpty();
    }

    public Resource withPods(long count) {
        return new Resource(milliCpu, memory, count, scalars);
    }

    /**
     * This resource as a Kubernetes resource list: {@code {cpu=2500m, memory=1Gi, nvidia.com/gpu=1}}
     * (an unlimited dimension reads "unlimited"). It is also how Jackson writes a Resource.
     */
    @com.fasterxml.jackson.annotation.JsonValue
    public Map<String, String> toQuantities() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String n : names()) {
            out.put(n, format(n, get(n)));
        }
        return out;
    }

    /** One dimension's amount in Kubernetes notation ("2", "2500m", "4Gi", "unlimited"). */
    public static String format(String name, long amount) {
        if (amount == UNLIMITED) {
            return "unlimited";
        }
        return switch (name) {
            case MEMORY -> formatBytes(amount);
            case PODS -> decimal(amount);
            default -> formatMillis(amount);
        };
    }

    private static String formatMillis(long m) {
        return m % 1000 == 0 ? decimal(m / 1000) : m + "m";
    }

    /** Binary units when exact, as Kubernetes writes memory given in Ki/Mi/Gi; else decimal ones. */
    private static String formatBytes(long b) {
        String[] units = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"};
        int[] shifts = {60, 50, 40, 30, 20, 10};
        for (int i = 0; i < units.length; i++) {
            long unit = 1L << shifts[i];
            if (b != 0 && b % unit == 0) {
                return (b / unit) + units[i];
            }
        }
        return decimal(b);
    }

    /**
     * Kubernetes' canonical decimal form: the largest power of a thousand that leaves a whole
     * number ("2k" for 2000, "1500k" for 1,500,000, "1500" for 1500), as Quantity.String() writes.
     */
    private static String decimal(long v) {
        String[] suffixes = {"", "k", "M", "G", "T", "P", "E"};
        int i = 0;
        while (v != 0 && v % 1000 == 0 && i < suffixes.length - 1) {
            v /= 1000;
            i++;
        }
        return v + suffixes[i];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Resource r
                && milliCpu == r.milliCpu
                && memory == r.memory
                && pods == r.pods
                && scalars.equals(r.scalars);
    }

    @Override
    public int hashCode() {
        return Objects.hash(milliCpu, memory, pods, scalars);
    }

    /** Readable: {@code cpu 2500m, memory 4Gi, nvidia.com/gpu 1, pods 3}; "none" when empty. */
    @Override
    public String toString() {
        if (isEmpty()) {
            return "none";
        }
        StringBuilder sb = new StringBuilder();
        for (String n : names()) {
            if (!sb.isEmpty()) sb.append(", ");
            sb.append(n).append(' ').append(format(n, get(n)));
        }
        return sb.toString();
    }
}
