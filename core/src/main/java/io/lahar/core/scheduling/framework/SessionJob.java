package io.lahar.core.scheduling.framework;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.SubGroupPolicy;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod group during a session, as Volcano's JobInfo: its tasks, counted by status overall and per
 * task role so gang checks (minMember, minTaskMember) are O(roles), and what kept it from running.
 *
 * <p>Readiness is defined here once, as Volcano's: a pending best-effort task counts as ready
 * (JobInfo.IsReady, CheckTaskReady, SubJobInfo.IsReady), since backfill places it whatever the
 * queue's share once allocate has made the rest of the gang.
 */
public final class SessionJob {
    private final JobInfo info;
    private final SessionQueue queue;
    private final List<SessionTask> tasks = new ArrayList<>();
    private final List<String> roles = new ArrayList<>();
    private final int[] roleMin;
    private final int[] roleReady;
    private final int[] roleWaiting;
    private final int[] roleValid;
    private final int[] rolePendingBestEffort;
    /** Volcano's SubJobs: each task's sub-group (-1 for none), each sub-group's policy, and its counts. */
    private final int[] taskSubGroup;

    private final int[] subGroupPolicy;
    private final int[] subGroupReady;
    private final int[] subGroupWaiting;
    private final int[] subGroupPendingBestEffort;
    private int ready;
    private int holding;
    private int finished;
    private int waiting;
    private int pending;
    private int pendingBestEffort;
    private int valid;
    private Resource allocated = Resource.EMPTY;
    private PodGroupPhase phase;
    private final List<String> problems;
    private final Map<SessionTask, FitErrors> fitErrors = new LinkedHashMap<>();
    private final List<String> reasons = new ArrayList<>();
    private int placeableInLastAttempt = -1;

    SessionJob(JobInfo info, SessionQueue queue, List<String> problems) {
        this.info = info;
        this.queue = queue;
        this.phase = info.phase();
        this.problems = List.copyOf(problems);
        Map<String, Integer> roleIdx = new LinkedHashMap<>();
        // A job's tasks come role after role: the map is consulted once a run of one role, not once a task.
        String lastRole = null;
        for (TaskInfo t : info.tasks()) {
            if (!t.role().equals(lastRole)) {
                lastRole = t.role();
                roleIdx.putIfAbsent(lastRole, roleIdx.size());
            }
        }
        roles.addAll(roleIdx.keySet());
        int n = roles.size();
        roleMin = new int[n];
        roleReady = new int[n];
        roleWaiting = new int[n];
        roleValid = new int[n];
        rolePendingBestEffort = new int[n];
        // Volcano's CheckTaskReady/Valid/Pipelined: when the job's minMember is below the sum of its
        // roles' minimums (minAvailable: 1 over tasks defaulted to their replicas), only the job-level
        // count applies, so the per-role minimums are left at zero.
        int roleTotal = 0;
        for (int min : info.minTaskMember().values()) {
            roleTotal += min;
        }
        for (int r = 0; r < n && info.minMember() >= roleTotal; r++) {
            roleMin[r] = info.minTaskMember().getOrDefault(roles.get(r), 0);
        }
        taskSubGroup = new int[info.tasks().size()];
        List<Integer> groupPolicy = new ArrayList<>();
        Map<String, Integer> groupIdx = new LinkedHashMap<>();
        for (int i = 0; i < info.tasks().size(); i++) {
            taskSubGroup[i] = -1;
            Map<String, String> labels = info.tasks().get(i).spec().labels();
            for (int k = 0; k < info.subGroupPolicy().size() && taskSubGroup[i] < 0; k++) {
                String group = info.subGroupPolicy().get(k).subGroupOf(labels);
                if (group != null) {
                    int policy = k;
                    taskSubGroup[i] = groupIdx.computeIfAbsent(group, g -> {
                        groupPolicy.add(policy);
                        return groupPolicy.size() - 1;
                    });
                }
            }
        }
        subGroupPolicy = groupPolicy.stream().mapToInt(Integer::intValue).toArray();
        subGroupReady = new int[subGroupPolicy.length];
        subGroupWaiting = new int[subGroupPolicy.length];
        subGroupPendingBestEffort = new int[subGroupPolicy.length];
        lastRole = null;
        int role = -1;
        for (int i = 0; i < info.tasks().size(); i++) {
            TaskInfo t = info.tasks().get(i);
            if (!t.role().equals(lastRole)) {
                lastRole = t.role();
                role = roleIdx.get(lastRole);
            }
            SessionTask st = new SessionTask(t, this, i, role);
            tasks.add(st);
            count(st, t.status(), +1);
        }
    }

    public JobInfo info() {
        return info;
    }

    public String key() {
        return info.key();
    }

    /** The job's queue, or null when it names a queue that does not exist. */
    public SessionQueue queue() {
        return queue;
    }

    public List<SessionTask> tasks() {
        return Collections.unmodifiableList(tasks);
    }

    public int minMember() {
        return info.minMember();
    }

    public int priority() {
        return info.priority();
    }

    public PodGroupPhase phase() {
        return phase;
    }

    void setPhase(PodGroupPhase p) {
        phase = p;
    }

    /** Problems of the snapshot that keep this job out of scheduling. */
    public List<String> problems() {
        return problems;
    }

    /** Volcano's ReadyTaskNum: tasks holding a node, plus succeeded ones. */
    public int readyTaskNum() {
        return ready;
    }

    /**
     * What this gang keeps reserved against its queue and the cluster at enqueue, beyond what it
     * holds (Volcano's inqueue share, as proportion and overcommit compute it): an Inqueue gang its
     * whole minResources, whatever it already holds; a Running one what its minResources still
     * promise beyond what it holds, once minMember tasks hold nodes; nothing otherwise. Tasks that
     * hold a node are Volcano's CalculateAllocatedTaskNum, without the succeeded ones
     * {@link #readyTaskNum()} counts: a finished gang whose pod group still says Running holds
     * nothing and must not reserve its minResources again.
     */
    public Resource inqueueReservation() {
        Resource min = info.minResources().withPods(0);
        if (phase == PodGroupPhase.Inqueue) {
            return min;
        }
        if (phase == PodGroupPhase.Running && holding >= info.minMember()) {
            return min.subClamped(allocated.withPods(0));
        }
        return Resource.EMPTY;
    }

    /** Tasks holding a node (an allocated status). */
    public int holdingTaskNum() {
        return holding;
    }

    /** Tasks that succeeded or failed (Volcano's CompletedStatus). */
    public int finishedTaskNum() {
        return finished;
    }

    /** Volcano's WaitingTaskNum: pipelined tasks. */
    public int waitingTaskNum() {
        return waiting;
    }

    public int pendingTaskNum() {
        return pending;
    }

    /** Volcano's PendingBestEffortTaskNum: pending tasks with no cpu, memory or scalar request. */
    public int pendingBestEffortTaskNum() {
        return pendingBestEffort;
    }

    /** Volcano's ValidTaskNum: tasks that are or may still become ready. */
    public int validTaskNum() {
        return valid;
    }

    /** What this job's tasks hold (sum of requests of tasks with an allocated status). */
    public Resource allocated() {
        return allocated;
    }

    /**
     * The gang's readiness (Volcano's gang JobReady): minMember ready, every role's minTaskMember
     * ready (CheckTaskReady), every policy's minSubGroups ready whole (CheckSubJobReady); pending
     * best-effort tasks count as ready in each.
     */
    public boolean isReady() {
        return minMemberReady()
                && rolesAtLeast(false, false)
                && unmetSubGroups(false).isEmpty();
    }

    /** Ready once its pipelined tasks arrive (Volcano's gang JobPipelined, each count with the pipelined tasks). */
    public boolean isPipelined() {
        return minMemberPipelined()
                && rolesAtLeast(true, false)
                && unmetSubGroups(true).isEmpty();
    }

    /** Volcano's JobInfo.IsReady: ready and pending best-effort tasks reach minMember (roles and sub-groups aside). */
    public boolean minMemberReady() {
        return ready + pendingBestEffort >= info.minMember();
    }

    /** Volcano's JobInfo.IsPipelined: ready, pipelined and pending best-effort tasks reach minMember. */
    public boolean minMemberPipelined() {
        return ready + waiting + pendingBestEffort >= info.minMember();
    }

    /** Enough tasks exist to ever satisfy the gang: minMember, each role's, and enough sub-groups (Volcano's CheckSubJobValid). */
    public boolean isValid() {
        return valid >= info.minMember()
                && rolesAtLeast(false, true)
                && unmetSubGroups(null).isEmpty();
    }

    /**
     * The sub-group policies short of their minSubGroups, as "policy (whole/min)": sub-groups
     * with subGroupSize tasks ready or pending best-effort (Volcano's CheckSubJobReady), those or
     * pipelined (CheckSubJobPipelined), or, with {@code countWaiting} null, sub-groups that exist
     * at all (CheckSubJobValid).
     */
    public List<String> unmetSubGroups(Boolean countWaiting) {
        List<SubGroupPolicy> policies = info.subGroupPolicy();
        if (policies.isEmpty()) {
            return List.of();
        }
        int[] whole = new int[policies.size()];
        for (int g = 0; g < subGroupPolicy.length; g++) {
            int placed = countWaiting == null
                    ? Integer.MAX_VALUE
                    : subGroupReady[g] + subGroupPendingBestEffort[g] + (countWaiting ? subGroupWaiting[g] : 0);
            if (placed >= policies.get(subGroupPolicy[g]).subGroupSize()) {
                whole[subGroupPolicy[g]]++;
            }
        }
        List<String> out = new ArrayList<>();
        for (int k = 0; k < whole.length; k++) {
            if (whole[k] < policies.get(k).minSubGroups()) {
                out.add(policies.get(k).name() + " " + whole[k] + "/"
                        + policies.get(k).minSubGroups());
            }
        }
        return out;
    }

    /** Volcano's IsStarving: fewer ready and waiting tasks than the gang needs. */
    public boolean isStarving() {
        return ready + waiting < info.minMember();
    }

    /** Whether every role reaches its minTaskMember with the counts {@link #unmetRoles} names. */
    private boolean rolesAtLeast(boolean countWaiting, boolean countValid) {
        for (int r = 0; r < roleMin.length; r++) {
            if ((countValid ? roleValid[r] : roleCount(r, countWaiting)) < roleMin[r]) {
                return false;
            }
        }
        return true;
    }

    /**
     * A role's tasks that count towards its minTaskMember: ready, pending best-effort (Volcano's
     * getJobAllocatedRoles) and, with {@code countWaiting}, pipelined (CheckTaskPipelined).
     */
    private int roleCount(int r, boolean countWaiting) {
        return roleReady[r] + rolePendingBestEffort[r] + (countWaiting ? roleWaiting[r] : 0);
    }

    /** Roles whose minTaskMember is not met by the given counts, as "role (ready/min)". */
    List<String> unmetRoles(boolean countWaiting, boolean countValid) {
        List<String> out = new ArrayList<>();
        for (int r = 0; r < roleMin.length; r++) {
            int have = countValid ? roleValid[r] : roleCount(r, countWaiting);
            if (have < roleMin[r]) {
                out.add(roles.get(r) + " " + have + "/" + roleMin[r]);
            }
        }
        return out;
    }

    /** Whether taking this task away keeps its role at its minTaskMember. */
    public boolean roleKeepsMinimumWithout(SessionTask t, int alreadyTaken) {
        int r = t.roleIndex();
        return roleReady[r] - alreadyTaken - 1 >= roleMin[r];
    }

    /**
     * Volcano's NeedContinueAllocating: after a task of one of {@code failedRoles} found no node,
     * whether allocate may go on with the job's other tasks. Not when every task is needed
     * (minMember is the whole job); when the job's minimum is below its roles' minimums together,
     * while the tasks held and the pending ones of the other roles could still make minMember;
     * otherwise while each failed role already holds its own minTaskMember (its pending
     * best-effort tasks counted, as Volcano's getJobAllocatedRoles does).
     */
    public boolean needContinueAllocating(java.util.Set<String> failedRoles) {
        if (info.minMember() == tasks.size()) return false;
        int roleTotal = 0;
        for (int min : info.minTaskMember().values()) {
            roleTotal += min;
        }
        if (info.minMember() < roleTotal) {
            int left = 0;
            for (SessionTask t : tasks) {
                if (t.status() == TaskStatus.Pending
                        && !failedRoles.contains(t.info().role())) left++;
            }
            return ready + left >= info.minMember();
        }
        for (String role : failedRoles) {
            int min = info.minTaskMember().getOrDefault(role, 0);
            if (min == 0) continue;
            int r = roles.indexOf(role);
            if (r < 0 || roleCount(r, false) < min) return false;
        }
        return true;
    }

    /** Tasks in Pending status, in the job's order. */
    public List<SessionTask> pendingTasks() {
        List<SessionTask> out = new ArrayList<>(pending);
        for (SessionTask t : tasks) {
            if (t.status() == TaskStatus.Pending) out.add(t);
        }
        return out;
    }

    void onStatusChange(SessionTask t, TaskStatus from, TaskStatus to) {
        count(t, from, -1);
        count(t, to, +1);
    }

    private void count(SessionTask t, TaskStatus s, int d) {
        int r = t.roleIndex();
        int g = taskSubGroup[t.index()];
        if (s.isAllocated() || s == TaskStatus.Succeeded) {
            ready += d;
            roleReady[r] += d;
            if (g >= 0) subGroupReady[g] += d;
        }
        if (s == TaskStatus.Pipelined) {
            waiting += d;
            roleWaiting[r] += d;
            if (g >= 0) subGroupWaiting[g] += d;
        }
        if (s == TaskStatus.Pending) {
            pending += d;
            if (t.isBestEffort()) {
                pendingBestEffort += d;
                rolePendingBestEffort[r] += d;
                if (g >= 0) subGroupPendingBestEffort[g] += d;
            }
        }
        if (s == TaskStatus.Pending || s.isAllocated() || s == TaskStatus.Succeeded || s == TaskStatus.Pipelined) {
            valid += d;
            roleValid[r] += d;
        }
        if (s == TaskStatus.Succeeded || s == TaskStatus.Failed) {
            finished += d;
        }
        if (s.isAllocated()) {
            holding += d;
            allocated = d > 0 ? allocated.add(t.resreq()) : allocated.sub(t.resreq());
        }
    }

    /** Why the task could not be placed on any node in this session's last attempt. */
    public Map<SessionTask, FitErrors> fitErrors() {
        return Collections.unmodifiableMap(fitErrors);
    }

    public void recordFitErrors(SessionTask t, FitErrors e) {
        fitErrors.put(t, e);
    }

    /** Job-level reasons (queue gates, enqueue gates) gathered during the session. */
    public List<String> reasons() {
        return Collections.unmodifiableList(reasons);
    }

    public void addReason(String reason) {
        if (!reasons.contains(reason)) {
            reasons.add(reason);
        }
    }

    /** How many tasks an allocate attempt managed to place before its statement was discarded. */
    public int placeableInLastAttempt() {
        return placeableInLastAttempt;
    }

    public void setPlaceableInLastAttempt(int n) {
        placeableInLastAttempt = n;
    }

    @Override
    public String toString() {
        return key();
    }
}
