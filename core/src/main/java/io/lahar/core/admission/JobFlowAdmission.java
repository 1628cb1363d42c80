package io.lahar.core.admission;

import io.lahar.core.api.DependsOn;
import io.lahar.core.api.Flow;
import io.lahar.core.api.FlowRetry;
import io.lahar.core.api.GoDuration;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Probe;
import io.lahar.core.flow.JobPatches;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * JobFlow admission (jobflows/validate, and the seed's rules where they differ): defaults
 * jobRetainPolicy retain and dependsOn.strategy all; rejects duplicate flow names, targets that
 * name no flow of this JobFlow, cycles, malformed probes and Lahar's retry/when extensions;
 * updates of the spec are not supported; an unfinished JobFlow can not be deleted.
 */
public final class JobFlowAdmission {

    /** The phases a {@code when} may wait for: the ones a job ends in. */
    static final List<String> WHEN_PHASES = List.of(
            JobPhase.Completed.name(), JobPhase.Failed.name(), JobPhase.Terminated.name(), JobPhase.Aborted.name());

    private JobFlowAdmission() {}

    public static JobFlow applyDefaults(JobFlow flow) {
        if (flow.spec() == null) {
            return flow;
        }
        JobFlow.JobFlowSpec spec = flow.spec();
        if (spec.jobRetainPolicy() == null || spec.jobRetainPolicy().isEmpty()) {
            spec = spec.withJobRetainPolicy(JobFlow.JobFlowSpec.RETAIN);
        }
        if (spec.flows() != null) {
            List<Flow> flows = new ArrayList<>();
            for (Flow f : spec.flows()) {
                if (f != null
                        && f.dependsOn() != null
                        && (f.dependsOn().strategy() == null
                                || f.dependsOn().strategy().isEmpty())) {
                    f = new Flow(
                            f.name(),
                            new DependsOn(f.dependsOn().targets(), f.dependsOn().probe(), DependsOn.ALL),
                            f.patch(),
                            f.retry(),
                            f.when());
                }
                flows.add(f);
            }
            spec = spec.withFlows(flows);
        }
        return flow.withSpec(spec);
    }

    public static AdmissionResult<JobFlow> create(JobFlow jobFlow, AdmissionContext ctx) {
        JobFlow flow = applyDefaults(jobFlow);
        Violations v = new Violations();
        JobAdmission.validateMetadata(flow, v);
        JobFlow.JobFlowSpec spec = flow.spec();
        if (spec == null) {
            v.add("spec", "required");
            return AdmissionResult.reject(v.list());
        }
        String policy = spec.jobRetainPolicy();
        if (!List.of(JobFlow.JobFlowSpec.RETAIN, JobFlow.JobFlowSpec.DELETE).contains(policy)) {
            v.add("spec.jobRetainPolicy", PodTemplateValidation.unsupported(policy, List.of("retain", "delete")));
        }
        List<Flow> flows = spec.flowsOrEmpty();
        if (flows.isEmpty()) {
            v.add("spec.flows", "required: a jobflow needs at least one flow");
        }
        Set<String> names = new HashSet<>();
        for (Flow f : flows) {
            if (f != null && f.name() != null) {
                names.add(f.name());
            }
        }
        Map<String, List<String>> deps = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            String at = "spec.flows[" + i + "]";
            if (f == null) {
                v.add(at, "required");
                continue;
            }
            String name = f.name() == null ? "" : f.name();
            if (name.isEmpty()) {
                v.add(at + ".name", "required: the name of a JobTemplate");
            } else if (!Names.dns1123Subdomain(name).isEmpty()) {
                v.add(
                        at + ".name",
                        "invalid template name \"" + name + "\": " + Names.join(Names.dns1123Subdomain(name)));
            } else if (!seen.add(name)) {
                v.add(at + ".name", "duplicate flow name \"" + name + "\"");
            } else {
                String jobName = flow.name() + "-" + name;
                if (!flow.name().isEmpty() && jobName.length() > Names.DNS1123_LABEL_MAX) {
                    v.add(
                            at + ".name",
                            "the job it creates, \"" + jobName + "\" (<jobflow>-<template>), must be no more than "
                                    + Names.DNS1123_LABEL_MAX + " characters");
                }
                deps.put(name, new ArrayList<>());
            }
            validateDependsOn(f, at, names, deps, v);
            if (f.patch() != null) {
                validatePatch(f, at + ".patch", ctx.limits(), v);
            }
            if (!name.isEmpty()) {
                ctx.template(flow.namespace(), name).ifPresent(t -> validateJob(flow, f, t, at, ctx.limits(), v));
            }
            if (f.retry() != null) {
                validateRetry(f.retry(), at + ".retry", v);
            }
            if (f.when() != null) {
                validateWhen(f, at + ".when", v);
            }
        }
        Graphs.findCycle(deps)
                .ifPresent(cycle -> v.add(
                        "spec.flows",
                        "jobflow flows do not form a directed acyclic graph (DAG): " + String.join(" -> ", cycle)));
        return AdmissionResult.of(flow, v.list());
    }

    private static void validateDependsOn(
            Flow f, String at, Set<String> names, Map<String, List<String>> deps, Violations v) {
        DependsOn d = f.dependsOn();
        if (d == null) {
            return;
        }
        String dp = at + ".dependsOn";
        Set<String> targets = new HashSet<>();
        List<String> list = d.targetsOrEmpty();
        for (int k = 0; k < list.size(); k++) {
            String t = list.get(k);
            String tp = dp + ".targets[" + k + "]";
            if (t == null || t.isEmpty()) {
                v.add(tp, "required");
            } else if (!names.contains(t)) {
                v.add(tp, "flow \"" + t + "\" not found in this jobflow");
            } else if (!targets.add(t)) {
                v.add(tp, "duplicate target \"" + t + "\"");
            } else if (f.name() != null && deps.containsKey(f.name())) {
                deps.get(f.name()).add(t);
            }
        }
        if (d.strategy() != null && !List.of(DependsOn.ALL, DependsOn.ANY).contains(d.strategy())) {
            v.add(dp + ".strategy", PodTemplateValidation.unsupported(d.strategy(), List.of("all", "any")));
        }
        Probe probe = d.probe();
        if (probe != null) {
            String pp = dp + ".probe";
            if (list.isEmpty()) {
                v.add(pp, "a probe needs dependsOn.targets: it checks the targets' jobs");
            }
            if (probe.httpGetList() != null) {
                for (int k = 0; k < probe.httpGetList().size(); k++) {
                    Probe.HttpGet h = probe.httpGetList().get(k);
                    String hp = pp + ".httpGetList[" + k + "]";
                    requireText(h.taskName(), hp + ".taskName", v);
                    requireText(h.path(), hp + ".path", v);
                    port(h.port(), hp + ".port", v);
                    if (h.httpHeader() != null
                            && (h.httpHeader().name() == null
                                    || h.httpHeader().name().isEmpty())) {
                        v.add(hp + ".httpHeader.name", "required");
                    }
                }
            }
            if (probe.tcpSocketList() != null) {
                for (int k = 0; k < probe.tcpSocketList().size(); k++) {
                    Probe.TcpSocket s = probe.tcpSocketList().get(k);
                    String sp = pp + ".tcpSocketList[" + k + "]";
                    requireText(s.taskName(), sp + ".taskName", v);
                    port(s.port(), sp + ".port", v);
                }
            }
            if (probe.taskStatusList() != null) {
                for (int k = 0; k < probe.taskStatusList().size(); k++) {
                    Probe.TaskStatus s = probe.taskStatusList().get(k);
                    String sp = pp + ".taskStatusList[" + k + "]";
                    requireText(s.taskName(), sp + ".taskName", v);
                    requireText(s.phase(), sp + ".phase", v);
                }
            }
        }
    }

    /**
     * The job the entry will create, where admission knows its template: the template's spec with
     * the entry's patch applied, checked as job admission will check it (every rule that depends on
     * the spec alone, the limits among them), so a patch that makes it invalid is refused now rather
     * than failing the flow later. The template may still change before the job is created; job
     * admission checks the job again then.
     */
    private static void validateJob(
            JobFlow flow, Flow f, JobTemplate template, String at, AdmissionLimits limits, Violations v) {
        if (template.spec() == null) {
            return;
        }
        String jobName = flow.name() + "-" + f.name();
        String from = "the job \"" + jobName + "\" made from JobTemplate \"" + f.name() + "\""
                + (f.patch() == null ? "" : " with this patch");
        JobSpec spec;
        try {
            spec = JobPatches.apply(template.spec(), f.patch());
        } catch (ManifestException e) {
            v.add(at + ".patch", from + " is not a Job spec: " + e.getMessage());
            return;
        }
        Violations job = new Violations();
        JobSpecValidation.validate(jobName, JobDefaults.apply(spec), limits, job);
        for (Violation violation : job.list()) {
            v.add(at, from + " is invalid: " + violation);
        }
    }

    private static void validatePatch(Flow f, String at, AdmissionLimits limits, Violations v) {
        var spec = f.patch().spec();
        if (spec == null) {
            v.add(at + ".spec", "required: the overrides of the template's spec");
            return;
        }
        var tasks = spec.path("tasks");
        if (tasks.isMissingNode() || tasks.isNull()) {
            return;
        }
        if (!tasks.isArray()) {
            v.add(at + ".spec.tasks", "must be a list");
            return;
        }
        Set<String> seen = new HashSet<>();
        for (int k = 0; k < tasks.size(); k++) {
            String tp = at + ".spec.tasks[" + k + "]";
            String name = tasks.get(k).path("name").asText("");
            if (name.isEmpty()) {
                v.add(tp + ".name", "required: patched tasks are matched to the template's by name");
            } else if (!seen.add(name)) {
                v.add(tp + ".name", "duplicate task name \"" + name + "\"");
            }
            // Checked here too, so a template not known yet still never meets a hostile number.
            var replicas = tasks.get(k).path("replicas");
            if (replicas.isNumber() && !replicas.isIntegralNumber()) {
                v.add(tp + ".replicas", "must be an integer");
            } else if (replicas.isNumber() && replicas.bigIntegerValue().signum() < 0) {
                v.add(tp + ".replicas", "must be >= 0");
            } else if (replicas.isNumber()
                    && replicas.bigIntegerValue().compareTo(java.math.BigInteger.valueOf(limits.maxPodsPerJob())) > 0) {
                v.add(tp + ".replicas", limits.overPodLimit(replicas.bigIntegerValue()));
            }
        }
    }

    private static void validateRetry(FlowRetry retry, String at, Violations v) {
        if (retry.maxRetries() == null) {
            v.add(at + ".maxRetries", "required");
        } else if (retry.maxRetries() < 0) {
            v.add(at + ".maxRetries", "must be >= 0");
        }
        FlowRetry.Backoff b = retry.backoff();
        if (b == null) {
            return;
        }
        Optional<Duration> base = duration(b.base(), at + ".backoff.base", v);
        Optional<Duration> cap = duration(b.cap(), at + ".backoff.cap", v);
        if (base.isPresent() && cap.isPresent() && cap.get().compareTo(base.get()) < 0) {
            v.add(at + ".backoff.cap", "must not be less than base (" + b.base() + ")");
        }
    }

    private static Optional<Duration> duration(String text, String at, Violations v) {
        if (text == null) {
            return Optional.empty();
        }
        Optional<Duration> d = GoDuration.parse(text);
        if (d.isEmpty()) {
            v.add(at, "invalid duration \"" + text + "\" (e.g. \"10s\", \"5m\")");
        } else if (d.get().isNegative()) {
            v.add(at, "must not be negative");
            return Optional.empty();
        }
        return d;
    }

    private static void validateWhen(Flow f, String at, Violations v) {
        List<String> phases = f.when().phases();
        if (phases == null || phases.isEmpty()) {
            v.add(at + ".phases", "required: the phases the targets must have ended in, e.g. [Completed]");
        } else {
            for (int k = 0; k < phases.size(); k++) {
                if (!WHEN_PHASES.contains(phases.get(k))) {
                    v.add(at + ".phases[" + k + "]", PodTemplateValidation.unsupported(phases.get(k), WHEN_PHASES));
                }
            }
        }
        if (f.dependsOn() == null || f.dependsOn().targetsOrEmpty().isEmpty()) {
            v.add(at, "requires dependsOn.targets: it is a condition on the targets' phases");
        }
    }

    private static void requireText(String s, String at, Violations v) {
        if (s == null || s.isEmpty()) {
            v.add(at, "required");
        }
    }

    private static void port(Integer port, String at, Violations v) {
        if (port == null) {
            v.add(at, "required");
        } else if (port < 1 || port > 65535) {
            v.add(at, "must be between 1 and 65535, inclusive");
        }
    }

    /** JobFlow updates are not supported (seed 001: the webhook blocks them). */
    /**
     * The flow runs the spec it was created with, so a change of the spec is refused; an update that
     * leaves the spec as it was (a label, an annotation: kubectl label, a re-apply) changes nothing
     * the engine runs and is accepted.
     */
    public static AdmissionResult<JobFlow> update(JobFlow old, JobFlow flow, AdmissionContext ctx) {
        if (!Objects.equals(applyDefaults(old).spec(), applyDefaults(flow).spec())) {
            return AdmissionResult.reject(List.of(new Violation("spec", "jobflow updates are not supported")));
        }
        Violations v = new Violations();
        JobAdmission.validateMetadata(flow, v);
        return AdmissionResult.of(applyDefaults(flow), v.list());
    }

    /** An unfinished JobFlow (not Succeed or Failed) can not be deleted (seed 001). */
    public static AdmissionResult<JobFlow> delete(JobFlow flow, AdmissionContext ctx) {
        JobFlow stored = ctx.find(flow).map(JobFlow.class::cast).orElse(flow);
        if (!JobTemplateAdmission.isFinished(stored)) {
            return AdmissionResult.reject(List.of(new Violation(
                    "metadata.name",
                    "jobflow \"" + stored.name() + "\" is not finished (phase " + JobTemplateAdmission.phase(stored)
                            + ") and can not be deleted")));
        }
        return AdmissionResult.accept(stored);
    }
}
