package io.lahar.core.job;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Counts over a job's pods that the controller reads on every input, kept as pods are put and
 * removed ({@link FrozenPods.Builder}) rather than found by looking at every pod each time.
 *
 * <p>Why: Volcano's syncJob counts the job's pods on every event, and so did the controller — it
 * looked up each replica's pod by name, then TaskCompleted and TaskFailed scanned them again, so
 * the cost of a pod event grew with the job. With the counts kept here, an event that changes one
 * pod costs the same whatever the job's size; the controller still scans when something must be
 * done to pods it cannot see from counts (pods to create, to delete, a spec that changed).
 *
 * <p>What is counted is exactly what those scans count: pods the engine has not asked to delete
 * ("live") by phase, overall and per task; pods it has (terminating); per task the pods in
 * Succeeded and the container restarts of pods in Pending or Running, terminating or not
 * (TaskCompleted, TaskFailed); live unfinished pods per job version (a pod of an older run still
 * alive must be deleted); and, against one set of spec pod names, how many pods have one of them.
 */
final class PodTally {

    private static final PodPhase[] PHASE_VALUES = PodPhase.values();
    private static final int PHASES = PHASE_VALUES.length;
    /** Per task: [0, PHASES) live pods per phase, then succeeded pods (any), then restarts. */
    private static final int SUCCEEDED = PHASES;

    private static final int RESTARTS = PHASES + 1;

    private int terminating;
    private final int[] live;
    private final Map<String, int[]> tasks;
    /**
     * Live pods not Succeeded or Failed, per their version, versions ascending; versions with none are
     * left out. Two arrays, not a sorted map: a job has one version most of the time, and the tally
     * is copied on every pod event.
     */
    private int[] versions;

    private int[] unfinished;
    private int versionCount;
    /** The spec pod names {@link #inSpec} counts against (by identity), null when not counted. */
    private Set<String> specNames;

    private int inSpec;

    PodTally() {
        this.live = new int[PHASES];
        this.tasks = new HashMap<>(4);
        this.versions = new int[2];
        this.unfinished = new int[2];
    }

    private PodTally(PodTally o) {
        this.terminating = o.terminating;
        this.live = o.live.clone();
        this.tasks = new HashMap<>(Math.max(4, o.tasks.size() * 2));
        o.tasks.forEach((task, n) -> tasks.put(task, n.clone()));
        this.versions = o.versions.clone();
        this.unfinished = o.unfinished.clone();
        this.versionCount = o.versionCount;
        this.specNames = o.specNames;
        this.inSpec = o.inSpec;
    }

    PodTally copy() {
        return new PodTally(this);
    }

    /** Counts {@code pod} (under {@code name}) in ({@code sign} 1) or out ({@code sign} -1). */
    void count(String name, JobPod pod, int sign) {
        if (specNames != null && specNames.contains(name)) {
            inSpec += sign;
        }
        if (pod.terminating()) {
            terminating += sign;
        }
        PodPhase phase = pod.phase();
        if (phase == null) {
            return;
        }
        int[] task = tasks.computeIfAbsent(pod.task(), t -> new int[PHASES + 2]);
        if (phase == PodPhase.Succeeded) {
            task[SUCCEEDED] += sign;
        }
        if (phase == PodPhase.Pending || phase == PodPhase.Running) {
            task[RESTARTS] += sign * pod.restartCount();
        }
        if (pod.terminating()) {
            return;
        }
        live[phase.ordinal()] += sign;
        task[phase.ordinal()] += sign;
        if (!phase.isTerminal()) {
            countUnfinished(pod.version(), sign);
        }
    }

    private void countUnfinished(int version, int sign) {
        int at = Arrays.binarySearch(versions, 0, versionCount, version);
        if (at >= 0) {
            unfinished[at] += sign;
            if (unfinished[at] == 0) {
                System.arraycopy(versions, at + 1, versions, at, versionCount - at - 1);
                System.arraycopy(unfinished, at + 1, unfinished, at, versionCount - at - 1);
                versionCount--;
            }
            return;
        }
        at = -at - 1;
        if (versionCount == versions.length) {
            versions = Arrays.copyOf(versions, versionCount * 2);
            unfinished = Arrays.copyOf(unfinished, versionCount * 2);
        }
        System.arraycopy(versions, at, versions, at + 1, versionCount - at);
        System.arraycopy(unfinished, at, unfinished, at + 1, versionCount - at);
        versions[at] = version;
        unfinished[at] = sign;
        versionCount++;
    }

    /** Whether {@link #inSpec} counts the pods with a name in {@code names} (that very set). */
    boolean countsSpecNames(Set<String> names) {
        return names == specNames;
    }

    /** Counts the pods with a name in {@code names} from now on; {@code keys} are the names of the pods counted so far. */
    void countSpecNames(Set<String> names, Iterable<String> keys) {
        specNames = names;
        inSpec = 0;
        for (String key : keys) {
            if (names.contains(key)) {
                inSpec++;
            }
        }
    }

    /** Pods with one of the names given to {@link #countSpecNames}. */
    int inSpec() {
        return inSpec;
    }

    int terminating() {
        return terminating;
    }

    /** Pods not terminating in {@code phase}. */
    int live(PodPhase phase) {
        return live[phase.ordinal()];
    }

    /** Whether a live pod that is not Succeeded or Failed has a version below {@code version}. */
    boolean unfinishedBefore(int version) {
        return versionCount > 0 && versions[0] < version;
    }

    /** The task's live pods in {@code phase}. */
    int live(String task, PodPhase phase) {
        int[] n = tasks.get(task);
        return n == null ? 0 : n[phase.ordinal()];
    }

    /** The task's pods in Succeeded, terminating or not. */
    int succeeded(String task) {
        int[] n = tasks.get(task);
        return n == null ? 0 : n[SUCCEEDED];
    }

    /** The container restarts of the task's pods in Pending or Running, terminating or not. */
    int restarts(String task) {
        int[] n = tasks.get(task);
        return n == null ? 0 : n[RESTARTS];
    }

    /** Volcano's TaskStatusCount of the live pods: a task appears once it has one. */
    TaskCounts taskCounts() {
        TaskCounts counts = new TaskCounts();
        tasks.forEach((task, n) -> {
            for (PodPhase p : PHASE_VALUES) {
                if (n[p.ordinal()] > 0) {
                    counts.add(task, p, n[p.ordinal()]);
                }
            }
        });
        return counts;
    }
}
