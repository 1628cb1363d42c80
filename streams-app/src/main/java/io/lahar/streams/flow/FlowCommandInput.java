package io.lahar.streams.flow;

import io.lahar.core.admission.Admission;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.AdmissionLimits;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.JobFlowAdmission;
import io.lahar.core.admission.JobTemplateAdmission;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.Flow;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.flow.FlowInput;
import io.lahar.schema.CommandResult;
import io.lahar.schema.DeleteFlowObject;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.FlowKind;
import io.lahar.schema.SubmitFlowObject;
import io.lahar.schema.Topics;
import io.lahar.streams.kafka.StateSize;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Flow commands: admission of JobFlows and JobTemplates (core), answered on
 * {@code lahar.command-results} with the command's requestId, every reason when rejected.
 *
 * <ul>
 *   <li>SubmitJobTemplate creates or replaces the template (Volcano allows updates; they affect
 *       only jobs not created yet) and publishes it on the compacted {@code lahar.job-templates};
 *   <li>DeleteJobTemplate is refused while an unfinished flow of the namespace uses it, else
 *       tombstones it;
 *   <li>SubmitJobFlow creates the flow (an existing one is refused: Volcano rejects JobFlow
 *       updates); besides the core's rules, every entry must name an existing JobTemplate;
 *   <li>DeleteJobFlow is refused while the flow is unfinished (the core's rule, seed 001), else
 *       the flow engine deletes the jobs it still has and tombstones the status.
 * </ul>
 * A command seen before (same requestId) is answered as it was and not applied again.
 */
public final class FlowCommandInput {

    /** The message ending of a refused create of an existing object (the REST API answers 409). */
    public static final String ALREADY_EXISTS = "already exists";
    /** The message ending of a command about an object that does not exist (the REST API answers 404). */
    public static final String NOT_FOUND = "not found";

    private final ProcessorContext<Object, Object> context;
    private final FlowEngine engine;
    private final KeyValueStore<String, byte[]> templates;
    private final TemplateLookup lookup;
    private final AdmissionLimits limits;

    FlowCommandInput(
            ProcessorContext<Object, Object> context,
            FlowEngine engine,
            KeyValueStore<String, byte[]> templates,
            TemplateLookup lookup,
            AdmissionLimits limits) {
        this.context = context;
        this.engine = engine;
        this.templates = templates;
        this.lookup = lookup;
        this.limits = limits;
    }

    /** Nothing stored, the configured limits: each command adds what its admission looks up. */
    private AdmissionContext admission() {
        return AdmissionContext.empty().withLimits(limits);
    }

    /** With the templates of the flow's entries that are visible, so the jobs they make are checked too. */
    private AdmissionContext admission(JobFlow flow) {
        AdmissionContext ctx = admission();
        if (flow.spec() != null) {
            for (JobTemplate t : lookup.templatesOf(flow)) {
                ctx = ctx.with(t);
            }
        }
        return ctx;
    }

    void handle(String key, FlowCommand command, long timestamp) {
        String kind = kindOf(command);
        long time = command.getTime().toEpochMilli();
        String expected = Topics.jobKey(command.getNamespace(), command.getName());
        if (!key.equals(expected)) {
            // Answered, so the sender does not wait for its timeout, and dead-lettered: it is bad input.
            Violation violation = new Violation(
                    "key",
                    "record key \"" + key + "\" does not match the command's object \"" + expected
                            + "\": flow commands are keyed namespace/name");
            // Keyed as it should have been: its readers find it by requestId, and a result is keyed by its object.
            answer(expected, command, reject(command, kind, List.of(violation)), timestamp);
            throw new IllegalArgumentException(violation.path() + ": " + violation.message());
        }
        switch (command.getKind()) {
            case JobFlow -> flowCommand(key, command, kind, time, timestamp);
            case JobTemplate -> templateCommand(key, command, kind, time, timestamp);
            default ->
                answer(
                        key,
                        command,
                        reject(
                                command,
                                kind,
                                List.of(new Violation(
                                        "kind",
                                        "unknown kind " + command.getKind()
                                                + ": this engine handles JobFlow and JobTemplate"))),
                        timestamp);
        }
    }

    // ---- JobFlow ------------------------------------------------------------------------------

    private void flowCommand(String key, FlowCommand command, String kind, long time, long timestamp) {
        FlowEntry entry = engine.load(key);
        FlowVerdict seen = FlowVerdict.find(entry.recent(), command.getRequestId());
        if (seen != null) {
            answer(key, command, seen, timestamp);
            return;
        }
        if (entry.held() != null && entry.held().requestId().equals(command.getRequestId())) {
            return; // sent again while held: the one answer comes when the hold ends
        }
        FlowVerdict verdict;
        if (command.getCommand() instanceof SubmitFlowObject submit) {
            verdict = submitFlow(key, entry, command, submit, kind, time, timestamp);
        } else {
            verdict = deleteFlow(key, entry, command, kind, time, timestamp);
        }
        if (verdict != null) {
            answer(key, command, verdict, timestamp);
        }
    }

    private FlowVerdict submitFlow(
            String key,
            FlowEntry entry,
            FlowCommand command,
            SubmitFlowObject submit,
            String kind,
            long time,
            long timestamp) {
        JobFlow flow;
        List<String> warnings;
        try {
            Manifests.Reading reading = read(submit.getManifest(), JobFlow.class, command);
            flow = (JobFlow) reading.manifest();
            warnings = reading.warnings();
        } catch (ManifestException e) {
            return reject(command, kind, List.of(new Violation("", e.getMessage())));
        }
        AdmissionContext ctx = admission(flow);
        if (entry.live()) {
            ctx = ctx.with(entry.info().flow());
        }
        AdmissionResult<Manifest> result = Admission.create(flow, ctx);
        List<Violation> violations = new ArrayList<>(result.violations());
        List<Violation> missing = entry.live() ? List.of() : missingTemplates(flow);
        if (violations.isEmpty() && entry.held() != null) {
            violations.add(new Violation(
                    "metadata.name",
                    "jobflow \"" + command.getName() + "\" is being admitted (request "
                            + entry.held().requestId() + " waits for its JobTemplates): it " + ALREADY_EXISTS));
        }
        if (!violations.isEmpty()) {
            violations.addAll(missing);
            FlowVerdict verdict = reject(command, kind, violations).withWarnings(warnings);
            if (entry.live() || entry.held() != null) {
                engine.save(key, entry, entry.remember(verdict));
            }
            return verdict;
        }
        if (!missing.isEmpty()) {
            // Maybe posted a moment ago, not visible here yet: hold the answer (see HeldSubmit).
            try {
                engine.save(key, entry, entry.withHeld(HeldSubmit.of(command, submit)), FlowStores.COMMAND_MAX_BYTES);
            } catch (StateSize.TooLarge e) {
                return reject(command, kind, List.of(e.violation("jobflow", "its status and its jobs")))
                        .withWarnings(warnings);
            }
            return null;
        }
        return admit(key, entry, command, kind, (JobFlow) result.object(), time, timestamp, warnings);
    }

    private FlowVerdict admit(
            String key,
            FlowEntry entry,
            FlowCommand command,
            String kind,
            JobFlow flow,
            long time,
            long timestamp,
            List<String> warnings) {
        JobFlow admitted = stamp(flow, command, time);
        FlowVerdict verdict =
                accept(command, kind, Manifests.toJson(admitted), time).withWarnings(warnings);
        FlowEntry fresh = new FlowEntry(null, entry.recent(), null).remember(verdict);
        List<JobTemplate> used = lookup.templatesOf(admitted);
        try {
            // Saved from the entry as it was, so its hold's timer goes with it.
            engine.apply(
                    key,
                    entry,
                    fresh,
                    new FlowInput.Submit(admitted, used, time),
                    timestamp,
                    FlowStores.COMMAND_MAX_BYTES - jobsYetToCome(admitted, used));
            return verdict;
        } catch (StateSize.TooLarge e) {
            FlowVerdict refused = reject(command, kind, List.of(e.violation("jobflow", "its status and its jobs")))
                    .withWarnings(warnings);
            if (entry.live() || entry.held() != null) {
                engine.save(key, entry, entry.withHeld(null).remember(refused));
            }
            return refused;
        }
    }

    /** What one job of a flow adds to its entry besides its manifest: status counts and capped histories. */
    private static final int JOB_STATUS_BYTES = 4 * 1024;

    /**
     * About what a flow's entry grows by after its submission: every job it creates is kept in it,
     * about the size of its template, with its status and history (capped per job).
     */
    private static int jobsYetToCome(JobFlow flow, List<JobTemplate> templates) {
        long bytes = (long) flow.spec().flowsOrEmpty().size() * JOB_STATUS_BYTES;
        for (JobTemplate t : templates) {
            bytes += Manifests.toJson(t).length();
        }
        return (int) Math.min(bytes, FlowStores.MAX_BYTES);
    }

    /**
     * A clock tick looks at a held submission again: admitted once every template it names is
     * visible, rejected with every missing one when its grace is over, else held on.
     */
    void recheck(String key, FlowEntry entry, long tickTime, long timestamp) {
        HeldSubmit held = entry.held();
        FlowCommand command = held.command();
        String kind = kindOf(command);
        FlowVerdict verdict;
        JobFlow flow;
        List<String> warnings = List.of();
        try {
            Manifests.Reading reading = read(held.manifest(), JobFlow.class, command);
            flow = (JobFlow) reading.manifest();
            warnings = reading.warnings();
        } catch (ManifestException e) {
            // It was read when it arrived; a reader that changed since rejects it rather than hold it forever.
            flow = null;
        }
        AdmissionResult<Manifest> result = flow == null ? null : Admission.create(flow, admission(flow));
        if (result == null || !result.accepted()) {
            verdict = reject(
                            command,
                            kind,
                            result == null
                                    ? List.of(new Violation("", "the held manifest no longer reads"))
                                    : result.violations())
                    .withWarnings(warnings);
            engine.save(key, entry, entry.withHeld(null).remember(verdict));
        } else {
            List<Violation> missing = missingTemplates(flow);
            if (missing.isEmpty()) {
                verdict = admit(key, entry, command, kind, (JobFlow) result.object(), held.time(), timestamp, warnings);
            } else if (held.expiresAt(tickTime)) {
                verdict = reject(command, kind, missing).withWarnings(warnings);
                engine.save(key, entry, entry.withHeld(null).remember(verdict));
            } else {
                engine.save(key, entry, entry.withHeld(held.checked()));
                return;
            }
        }
        answer(key, command, verdict, timestamp);
    }

    /**
     * Lahar's admission adds what Volcano's webhook leaves to the controller: every entry must
     * name a JobTemplate of the flow's namespace. Read from the global template store, so a
     * template admitted a few milliseconds earlier may not be visible yet (see {@link TemplateLookup}).
     */
    private List<Violation> missingTemplates(JobFlow flow) {
        List<Violation> out = new ArrayList<>();
        List<Flow> flows = flow.spec() == null ? List.of() : flow.spec().flowsOrEmpty();
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            if (f != null
                    && f.name() != null
                    && !f.name().isEmpty()
                    && lookup.template(flow.namespace(), f.name()).isEmpty()) {
                out.add(new Violation(
                        "spec.flows[" + i + "].name",
                        "jobtemplate \"" + f.name() + "\" " + NOT_FOUND + " in namespace " + flow.namespace()));
            }
        }
        return out;
    }

    private FlowVerdict deleteFlow(
            String key, FlowEntry entry, FlowCommand command, String kind, long time, long timestamp) {
        if (!entry.live()) {
            return reject(
                    command,
                    kind,
                    List.of(new Violation(
                            "metadata.name",
                            "jobflow \"" + command.getName() + "\" " + NOT_FOUND + " in namespace "
                                    + command.getNamespace())));
        }
        JobFlow stored = entry.info().flow().withStatus(entry.info().status());
        AdmissionResult<JobFlow> result =
                JobFlowAdmission.delete(stored, admission().with(stored));
        if (!result.accepted()) {
            FlowVerdict verdict = reject(command, kind, result.violations());
            engine.save(key, entry, entry.remember(verdict));
            return verdict;
        }
        FlowVerdict verdict = accept(command, kind, null, time);
        engine.apply(key, entry.remember(verdict), new FlowInput.Delete(time), timestamp);
        return verdict;
    }

    // ---- JobTemplate --------------------------------------------------------------------------

    private void templateCommand(String key, FlowCommand command, String kind, long time, long timestamp) {
        byte[] bytes = templates.get(key);
        TemplateEntry entry = bytes == null ? TemplateEntry.empty() : FlowStores.decode(bytes, TemplateEntry.class);
        FlowVerdict seen = FlowVerdict.find(entry.recent(), command.getRequestId());
        if (seen != null) {
            answer(key, command, seen, timestamp);
            return;
        }
        FlowVerdict verdict;
        TemplateEntry next;
        byte[] encoded = null;
        if (command.getCommand() instanceof SubmitFlowObject submit) {
            JobTemplate template = null;
            List<Violation> violations;
            List<String> warnings = List.of();
            try {
                Manifests.Reading reading = read(submit.getManifest(), JobTemplate.class, command);
                template = (JobTemplate) reading.manifest();
                warnings = reading.warnings();
                AdmissionResult<JobTemplate> r = entry.template() == null
                        ? JobTemplateAdmission.create(template, admission())
                        : JobTemplateAdmission.update(entry.template(), template, admission());
                violations = r.violations();
            } catch (ManifestException e) {
                violations = List.of(new Violation("", e.getMessage()));
            }
            JobTemplate admitted = violations.isEmpty() ? stamp(template, entry.template(), command, time) : null;
            FlowVerdict accepted = admitted == null
                    ? null
                    : accept(command, kind, Manifests.toJson(admitted), time).withWarnings(warnings);
            if (admitted != null) {
                try {
                    // Checked before the template is published: no template is out there without its entry.
                    encoded = FlowStores.encode(
                            key, entry.withTemplate(admitted).remember(accepted), FlowStores.COMMAND_MAX_BYTES);
                } catch (StateSize.TooLarge e) {
                    violations = List.of(e.violation("jobtemplate", "the answers to its later commands"));
                }
            }
            if (violations.isEmpty()) {
                verdict = accepted;
                next = entry.withTemplate(admitted).remember(verdict);
                context.forward(
                        new Record<>(key, FlowCodecs.toTemplateRecord(admitted, time), timestamp), FlowSinks.TEMPLATES);
            } else {
                verdict = reject(command, kind, violations).withWarnings(warnings);
                next = entry.template() == null ? null : entry.remember(verdict);
                encoded = null;
            }
        } else if (entry.template() == null) {
            verdict = reject(
                    command,
                    kind,
                    List.of(new Violation(
                            "metadata.name",
                            "jobtemplate \"" + command.getName() + "\" " + NOT_FOUND + " in namespace "
                                    + command.getNamespace())));
            next = entry.recent().isEmpty() ? null : entry.remember(verdict);
        } else {
            AdmissionContext ctx = admission();
            for (JobFlow f : lookup.flows(command.getNamespace())) {
                ctx = ctx.with(f);
            }
            AdmissionResult<JobTemplate> r = JobTemplateAdmission.delete(entry.template(), ctx);
            if (r.accepted()) {
                verdict = accept(command, kind, null, time);
                next = entry.withTemplate(null).remember(verdict);
                // A tombstone: the compacted topic, and every flow's view of it, forgets the template.
                context.forward(new Record<>(key, null, timestamp), FlowSinks.TEMPLATES);
            } else {
                verdict = reject(command, kind, r.violations());
                next = entry.remember(verdict);
            }
        }
        if (next != null) {
            templates.put(key, encoded != null ? encoded : FlowStores.encode(key, next));
        }
        answer(key, command, verdict, timestamp);
    }

    // ---- shared -------------------------------------------------------------------------------

    /** Reads the manifest, with its warnings, and checks it is of the command's kind, namespace and name. */
    private static Manifests.Reading read(String json, Class<? extends Manifest> type, FlowCommand command) {
        Manifests.Reading reading = Manifests.readWithWarnings(json);
        Manifest m = reading.manifest();
        if (!type.isInstance(m)) {
            throw new ManifestException("expected a " + type.getSimpleName() + ", found a " + m.kind());
        }
        if (!m.namespace().equals(command.getNamespace()) || !m.name().equals(command.getName())) {
            throw new ManifestException("the manifest is " + m.namespace() + "/" + m.name()
                    + " but the command is about " + command.getNamespace() + "/" + command.getName());
        }
        return reading;
    }

    /**
     * What the API server would add on create: the namespace, a uid and the creation time. The
     * uid is derived from the key and the requestId, the time is the command's: replay gives the same.
     */
    private static JobFlow stamp(JobFlow flow, FlowCommand command, long time) {
        return new JobFlow(
                flow.apiVersion(), flow.kind(), stampMeta(flow.metadata(), null, command, time), flow.spec(), null);
    }

    private static JobTemplate stamp(JobTemplate t, JobTemplate old, FlowCommand command, long time) {
        return new JobTemplate(
                t.apiVersion(),
                t.kind(),
                stampMeta(t.metadata(), old == null ? null : old.metadata(), command, time),
                t.spec(),
                null);
    }

    private static ObjectMeta stampMeta(ObjectMeta m, ObjectMeta old, FlowCommand command, long time) {
        String uid = old != null && old.uid() != null
                ? old.uid()
                : m.uid() != null
                        ? m.uid()
                        : UUID.nameUUIDFromBytes((command.getKind() + "/" + command.getNamespace() + "/"
                                                + command.getName() + "/" + command.getRequestId())
                                        .getBytes(StandardCharsets.UTF_8))
                                .toString();
        String created = old != null && old.creationTimestamp() != null
                ? old.creationTimestamp()
                : Instant.ofEpochMilli(time).toString();
        return new ObjectMeta(
                m.name(),
                m.generateName(),
                command.getNamespace(),
                uid,
                m.resourceVersion(),
                m.generation(),
                created,
                null,
                m.labels(),
                m.annotations(),
                m.ownerReferences(),
                m.finalizers());
    }

    static String kindOf(FlowCommand command) {
        String verb = command.getCommand() instanceof DeleteFlowObject ? "Delete" : "Submit";
        return verb
                + (command.getKind() == FlowKind.Unknown
                        ? ""
                        : command.getKind().name());
    }

    private static FlowVerdict reject(FlowCommand command, String kind, List<Violation> violations) {
        return FlowVerdict.rejected(
                command.getRequestId(),
                kind,
                violations,
                command.getSender(),
                command.getTime().toEpochMilli());
    }

    private static FlowVerdict accept(FlowCommand command, String kind, String manifest, long time) {
        return FlowVerdict.accepted(command.getRequestId(), kind, manifest, command.getSender(), time);
    }

    private void answer(String key, FlowCommand command, FlowVerdict verdict, long timestamp) {
        CommandResult result = verdict.toResult(command.getNamespace(), command.getName());
        context.forward(new Record<>(key, result, timestamp), FlowSinks.RESULTS);
    }
}
