/**
 * Volcano's job controller as a pure function.
 *
 * <p>{@link io.lahar.core.job.JobController#apply} takes the job's {@link io.lahar.core.job.JobInfo}
 * (admitted job with its status, pods, timers, pod group) and one {@link io.lahar.core.job.Input}
 * (submit, update, delete, command, pod observed, pod group observed, tick) and returns an
 * {@link io.lahar.core.job.Outcome}: the new state, the {@link io.lahar.core.job.Transition}s
 * (from, to, event, action, policy, reason, message) and the {@link io.lahar.core.job.WorldAction}s
 * (create/delete pods, upsert/delete the pod group, plugin objects, delete the job on TTL).
 *
 * <p>Processing follows Volcano's processNextReq: the input updates the pod view and raises an
 * event (PodPending, PodRunning, PodFailed, PodEvicted, TaskCompleted, TaskFailed, Unknown,
 * JobUpdated, OutOfSync, CommandIssued); {@link io.lahar.core.job.Policies} picks the action;
 * a policy with a timeout arms a {@link io.lahar.core.job.Timer}; otherwise the current phase's
 * state ({@link io.lahar.core.job.state}) executes the action through SyncJob, KillJob or
 * KillTarget. A phase change is followed by a sync, as Volcano's status write is followed by a
 * job-update event.
 *
 * <p>{@code status.version} is bumped once per action that kills the job's run (RestartJob,
 * AbortJob, TerminateJob, CompleteJob, ResumeJob, and the policies that raise them), and pods of an
 * older version only sync. Volcano's killJob bumps it on every call, and the Completing, Aborting,
 * Terminating, Aborted and finished states answer every later sync with a kill, so there the number
 * counts the reconciles its informer and work queue happened to run (coalesced by timing): no
 * deterministic replay could reproduce it. What the version means — which run a pod belongs to,
 * and so which pod events are outdated — is the same under both rules.
 */
package io.lahar.core.job;
