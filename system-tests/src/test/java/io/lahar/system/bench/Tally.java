package io.lahar.system.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the run's topics said, by second of the run: bindings, pods that started, jobs that reached
 * Running and Completed, and each job's time from its submit command to Running. Fed by one
 * thread ({@link RunObserver}), read by the others under its lock.
 */
final class Tally {

    private final long start;
    private final int seconds;
    private final int[] binds;
    private final int[] podsStarted;
    private final int[] jobsCompleted;
    private final Map<String, Long> submitted = new HashMap<>();
    private final Map<String, Long> running = new HashMap<>();
    /** Pods (by uid) seen Running and not yet seen finished or deleted: the cluster's occupancy. */
    private final Set<String> occupying = new HashSet<>();

    private int rejected;
    private String firstRejection;

    /** @param start the run's first millisecond; @param seconds how long it may last at most */
    Tally(long start, int seconds) {
        this.start = start;
        this.seconds = seconds;
        this.binds = new int[seconds];
        this.podsStarted = new int[seconds];
        this.jobsCompleted = new int[seconds];
    }

    synchronized void submitted(String job, long at) {
        submitted.put(job, at);
    }

    synchronized void bound(long at) {
        count(binds, at);
    }

    synchronized void podRunning(String uid, long at) {
        if (occupying.add(uid)) {
            count(podsStarted, at);
        }
    }

    synchronized void podGone(String uid) {
        occupying.remove(uid);
    }

    /** A job's first transition to Running counts; a restart's second one does not. */
    synchronized void jobRunning(String job, long at) {
        running.putIfAbsent(job, at);
    }

    synchronized void jobCompleted(long at) {
        count(jobsCompleted, at);
    }

    synchronized void rejected(String reason) {
        rejected++;
        if (firstRejection == null) {
            firstRejection = reason;
        }
    }

    synchronized int occupancy() {
        return occupying.size();
    }

    synchronized int rejected() {
        return rejected;
    }

    synchronized String firstRejection() {
        return firstRejection;
    }

    /** Jobs submitted in [from, to) that have not reached Running yet. */
    synchronized int notRunning(long from, long to) {
        int n = 0;
        for (var e : submitted.entrySet()) {
            if (e.getValue() >= from && e.getValue() < to && !running.containsKey(e.getKey())) {
                n++;
            }
        }
        return n;
    }

    /** What happened in [from, to): rates over that window, latencies of the jobs submitted in it. */
    synchronized Window window(long from, long to) {
        List<Long> latencies = new ArrayList<>();
        int submittedIn = 0;
        for (var e : submitted.entrySet()) {
            if (e.getValue() >= from && e.getValue() < to) {
                submittedIn++;
                Long at = running.get(e.getKey());
                if (at != null) {
                    latencies.add(at - e.getValue());
                }
            }
        }
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        double secs = (to - from) / 1000.0;
        return new Window(
                from,
                to,
                submittedIn,
                sorted.length,
                sum(jobsCompleted, from, to) / secs,
                sum(binds, from, to) / secs,
                sum(podsStarted, from, to) / secs,
                percentile(sorted, 50),
                percentile(sorted, 99),
                sorted.length == 0 ? -1 : sorted[sorted.length - 1]);
    }

    /** The nearest-rank percentile of sorted values; -1 for none. */
    static long percentile(long[] sorted, int p) {
        if (sorted.length == 0) {
            return -1;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    private void count(int[] buckets, long at) {
        int i = (int) ((at - start) / 1000);
        if (i >= 0 && i < seconds) {
            buckets[i]++;
        }
    }

    private int sum(int[] buckets, long from, long to) {
        int a = (int) Math.max(0, (from - start) / 1000);
        int b = (int) Math.min(seconds, (to - start) / 1000);
        return a >= b ? 0 : Arrays.stream(buckets, a, b).sum();
    }

    /**
     * One window of the run: jobs submitted in it and how many of those reached Running; jobs
     * completed, pods bound and pods started per second in it; submit→Running percentiles in ms.
     */
    record Window(
            long from,
            long to,
            int submitted,
            int reachedRunning,
            double jobsCompletedPerSecond,
            double podsBoundPerSecond,
            double podsStartedPerSecond,
            long p50,
            long p99,
            long max) {}
}
