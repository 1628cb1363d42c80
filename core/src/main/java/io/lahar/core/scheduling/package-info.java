/**
 * Volcano's scheduling framework, pure: one {@link io.lahar.core.scheduling.framework.Session} over
 * an immutable {@link io.lahar.core.scheduling.api.Snapshot} decides bindings, evictions, pod-group
 * phases and, for every pod group left pending, the reason.
 *
 * <pre>{@code
 * SchedulerConf conf = SchedulerConf.parse(yaml);          // or SchedulerConf.defaults()
 * SessionResult r = new Scheduler(conf).schedule(snapshot);
 * r.bindings();     // bind these now (their gang is whole)
 * r.nominations();  // promised nodes: pipelined onto resources being released
 * r.evictions();    // preempt / reclaim / shuffle victims, with reasons
 * r.phaseChanges(); // Pending -> Inqueue -> Running
 * r.conditions();   // per pod group: Unschedulable + message, or Scheduled
 * }</pre>
 *
 * <ul>
 *   <li>{@code api}: the snapshot's plain values (NodeInfo, QueueInfo, JobInfo with its TaskInfos).</li>
 *   <li>{@code framework}: Session, Statement, SchedulerConf (Volcano's YAML), PluginRegistry,
 *       the function registrations and their tiered dispatch, CandidateIndex.</li>
 *   <li>{@code actions}: enqueue, allocate, backfill, preempt, reclaim, shuffle.</li>
 *   <li>{@code plugins}: priority, gang, conformance, overcommit, drf, predicates, proportion,
 *       capacity, nodeorder, binpack, sla, tdm.</li>
 * </ul>
 */
package io.lahar.core.scheduling;
