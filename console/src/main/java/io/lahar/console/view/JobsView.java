package io.lahar.console.view;

import io.lahar.schema.JobStatusRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The latest {@code lahar.job-status} record of every job (a tombstone removes it), with its table
 * row and the facts of its manifest, which is parsed again only when it changed.
 */
public final class JobsView {

    /** One job as the console holds it. {@code record} is null for an undecodable record. */
    record Entry(JobStatusRecord record, String manifest, JobSpecFacts facts, JobRow row) {}

    private final Map<String, Entry> jobs = new HashMap<>();

    void put(String key, JobStatusRecord record) {
        Entry old = jobs.get(key);
        String manifest = record.getManifest();
        JobSpecFacts facts = old != null && manifest.equals(old.manifest()) ? old.facts() : JobSpecFacts.of(manifest);
        jobs.put(key, new Entry(record, manifest, facts, JobRow.of(key, record, facts)));
    }

    void undecodable(String key, Undecodable u) {
        jobs.put(key, new Entry(null, null, JobSpecFacts.NONE, JobRow.undecodable(key, u)));
    }

    void remove(String key) {
        jobs.remove(key);
    }

    Entry get(String key) {
        return jobs.get(key);
    }

    int size() {
        return jobs.size();
    }

    Collection<Entry> entries() {
        return jobs.values();
    }

    /** The jobs table's filters (null or blank = any), sort and page. */
    public record Query(
            String namespace, String queue, String phase, String text, String sort, int offset, int limit) {}

    /** One page of rows, the number of rows the filters match, and every value of each filter. */
    public record Page(
            int total,
            int matched,
            List<JobRow> items,
            Map<String, Integer> namespaces,
            Map<String, Integer> queues,
            Map<String, Integer> phases) {}

    Page query(Query q) {
        String text = blank(q.text()) ? null : q.text().strip().toLowerCase(Locale.ROOT);
        List<JobRow> matched = new ArrayList<>();
        Map<String, Integer> namespaces = new TreeMap<>();
        Map<String, Integer> queues = new TreeMap<>();
        Map<String, Integer> phases = new TreeMap<>();
        for (Entry e : jobs.values()) {
            JobRow r = e.row();
            namespaces.merge(r.namespace(), 1, Integer::sum);
            if (!r.queue().isEmpty()) {
                queues.merge(r.queue(), 1, Integer::sum);
            }
            phases.merge(r.phase(), 1, Integer::sum);
            if (is(q.namespace(), r.namespace())
                    && is(q.queue(), r.queue())
                    && is(q.phase(), r.phase())
                    && (text == null || r.matches(text))) {
                matched.add(r);
            }
        }
        int from = Math.min(Math.max(0, q.offset()), matched.size());
        int to = Math.min(matched.size(), from + Math.max(0, q.limit()));
        List<JobRow> first = first(matched, to, order(q.sort()));
        return new Page(jobs.size(), matched.size(), List.copyOf(first.subList(from, to)), namespaces, queues, phases);
    }

    /** The first {@code n} rows in that order, without sorting them all (a page is a few of many). */
    static List<JobRow> first(List<JobRow> rows, int n, Comparator<JobRow> order) {
        if (n >= rows.size() / 4) {
            rows.sort(order);
            return rows.subList(0, n);
        }
        java.util.PriorityQueue<JobRow> kept = new java.util.PriorityQueue<>(n + 1, order.reversed());
        for (JobRow r : rows) {
            if (kept.size() < n) {
                kept.add(r);
            } else if (n > 0 && order.compare(r, kept.peek()) < 0) {
                kept.poll();
                kept.add(r);
            }
        }
        List<JobRow> out = new ArrayList<>(kept);
        out.sort(order);
        return out;
    }

    private static boolean is(String wanted, String value) {
        return blank(wanted) || wanted.equals(value);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    /** Newest first unless told otherwise; the key breaks ties so pages are stable. */
    static Comparator<JobRow> order(String sort) {
        Comparator<JobRow> byKey = Comparator.comparing(JobRow::key);
        Comparator<JobRow> created =
                Comparator.comparing((JobRow r) -> r.created() == null ? r.updated() : r.created());
        Comparator<JobRow> primary = switch (sort == null ? "" : sort) {
            case "name" -> Comparator.comparing(JobRow::name);
            case "queue" -> Comparator.comparing(JobRow::queue);
            case "phase" -> Comparator.comparing(JobRow::phase);
            case "retries" -> Comparator.comparingInt(JobRow::retryCount).reversed();
            case "oldest" -> created;
            case "updated" -> Comparator.comparingLong(JobRow::updated).reversed();
            default -> created.reversed();
        };
        return primary.thenComparing(byKey);
    }
}
