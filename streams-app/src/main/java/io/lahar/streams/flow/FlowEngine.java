package io.lahar.streams.flow;

import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifests;
import io.lahar.core.flow.EntryState;
import io.lahar.core.flow.FlowAction;
import io.lahar.core.flow.FlowEvent;
import io.lahar.core.flow.FlowInfo;
import io.lahar.core.flow.FlowInput;
import io.lahar.core.flow.FlowJob;
import io.lahar.core.flow.FlowOutcome;
import io.lahar.core.flow.FlowTransition;
import io.lahar.core.flow.JobFlowController;
import io.lahar.schema.DeleteJob;
import io.lahar.schema.JobCommand;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Topics;
import io.lahar.streams.kafka.StateSize;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jboss.logging.Logger;

/**
 * Runs inputs through {@link JobFlowController} for one flow and carries out what came of them:
 * the jobs to create become SubmitJob commands on {@code lahar.job-commands} (so job admission
 * and the job engine treat them like any job), the jobs to delete DeleteJob commands; the flow's
 * status goes to the compacted {@code lahar.flow-status} (a tombstone once deleted); the entry is
 * saved with its timer. Time is only ever the inputs' time.
 */
final class FlowEngine {

    private static final Logger LOG = Logger.getLogger(FlowEngine.class);

    private final JobFlowController controller = new JobFlowController();
    private final ProcessorContext<Object, Object> context;
    private final KeyValueStore<String, byte[]> flows;
    private final FlowTimers timers;
    private final TemplateLookup lookup;

    FlowEngine(
            ProcessorContext<Object, Object> context,
            KeyValueStore<String, byte[]> flows,
            FlowTimers timers,
            TemplateLookup lookup) {
        this.context = context;
        this.flows = flows;
        this.timers = timers;
        this.lookup = lookup;
    }

    FlowEntry load(String key) {
        byte[] bytes = flows.get(key);
        return bytes == null ? FlowEntry.empty() : FlowStores.decode(bytes, FlowEntry.class);
    }

    void save(String key, FlowEntry before, FlowEntry after) {
        save(key, before, after, FlowStores.MAX_BYTES);
    }

    /**
     * As {@link #save(String, FlowEntry, FlowEntry)}, refusing an entry over {@code limit} bytes.
     *
     * @throws StateSize.TooLarge when it is: nothing was saved
     */
    void save(String key, FlowEntry before, FlowEntry after, int limit) {
        flows.put(key, FlowStores.encode(key, after, limit));
        timers.update(key, FlowTimers.nextDue(before), FlowTimers.nextDue(after));
    }

    /**
     * Applies {@code input} to the flow under {@code key} (first the templates that changed since
     * the flow last looked, for the entries not created yet), saves and emits; returns the new entry.
     */
    FlowEntry apply(String key, FlowEntry entry, FlowInput input, long timestamp) {
        return apply(key, entry, entry, input, timestamp, FlowStores.MAX_BYTES);
    }

    /**
     * As {@link #apply(String, FlowEntry, FlowInput, long)}, where {@code stored} is what the store
     * holds now (its timer is replaced), refusing an entry over {@code limit} bytes. The entry is
     * saved before anything is sent, so a refused one sends nothing.
     *
     * @throws StateSize.TooLarge when the entry would be over {@code limit}: nothing was saved or sent
     */
    FlowEntry apply(String key, FlowEntry stored, FlowEntry entry, FlowInput input, long timestamp, int limit) {
        FlowInfo before = entry.info();
        FlowInfo state = before;
        List<JobCommand> commands = new ArrayList<>();
        if (entry.live() && !(input instanceof FlowInput.Submit) && !(input instanceof FlowInput.Delete)) {
            for (FlowJob j : before.jobs().values()) {
                if (j.state() != EntryState.Waiting) {
                    continue;
                }
                Optional<JobTemplate> now = lookup.template(before.flow().namespace(), j.entry());
                if (now.isPresent() && !now.get().equals(before.templates().get(j.entry()))) {
                    state = run(key, state, new FlowInput.TemplateChanged(now.get(), input.time()), commands);
                }
            }
        }
        state = run(key, state, input, commands);
        FlowEntry after = entry.withInfo(state);
        save(key, stored, after, limit);
        for (JobCommand command : commands) {
            context.forward(
                    new Record<>(Topics.jobKey(command.getNamespace(), command.getName()), command, timestamp),
                    FlowSinks.JOB_COMMANDS);
        }
        publish(key, before, state, timestamp);
        return after;
    }

    /** Runs one input; the job commands it gives are added to {@code commands}, to send once the entry is saved. */
    private FlowInfo run(String key, FlowInfo state, FlowInput input, List<JobCommand> commands) {
        FlowOutcome outcome = controller.apply(state, input);
        FlowInfo next = outcome.state();
        for (FlowTransition t : outcome.transitions()) {
            LOG.infof("jobflow %s: %s -> %s (%s): %s", key, t.from(), t.to(), t.reason(), t.message());
        }
        for (FlowEvent e : outcome.events()) {
            LOG.debugf("jobflow %s: %s: %s", key, e.reason(), e.message());
        }
        for (FlowAction action : outcome.actions()) {
            JobCommand command = switch (action) {
                // The flow's time (not the input's, which may be late): a created job's createdAt,
                // so a refusal of this command can be matched to the job it concerns.
                case FlowAction.CreateJob c ->
                    command(next, c.job().name(), "create", next.time(), new SubmitJob(Manifests.toJson(c.job())));
                case FlowAction.DeleteJob d ->
                    command(
                            next,
                            d.name(),
                            "delete",
                            next.time(),
                            new DeleteJob("deleted by jobflow " + key + ": " + d.reason()));
            };
            commands.add(command);
        }
        return next;
    }

    /**
     * A command about one of the flow's jobs. Its requestId is derived from the flow's uid, the
     * verb, the job and the flow's time, so a replay sends the same ids and the job gate
     * answers a repeated command once.
     */
    private static JobCommand command(FlowInfo flow, String job, String verb, long time, Object body) {
        String namespace = flow.flow().namespace();
        return JobCommand.newBuilder()
                .setRequestId(requestId(flow, verb, job, time))
                .setSender(sender(namespace, flow.name()))
                .setNamespace(namespace)
                .setName(job)
                .setTime(Instant.ofEpochMilli(time))
                .setCommand(body)
                .build();
    }

    static String requestId(FlowInfo flow, String verb, String job, long time) {
        return "jobflow:" + flow.flow().metadata().uid() + ":" + verb + ":" + job + ":" + time;
    }

    static String sender(String namespace, String flow) {
        return "jobflow:" + namespace + "/" + flow;
    }

    private void publish(String key, FlowInfo before, FlowInfo after, long timestamp) {
        if (after == null || after.flow() == null) {
            return;
        }
        if (after.deleted()) {
            if (before != null && !before.deleted()) {
                // A tombstone: the compacted status topic forgets the flow.
                context.forward(new Record<>(key, null, timestamp), FlowSinks.FLOW_STATUS);
            }
            return;
        }
        boolean changed = before == null
                || before.flow() == null
                || before.deleted()
                || !Objects.equals(before.status(), after.status());
        if (changed) {
            context.forward(new Record<>(key, FlowCodecs.toStatusRecord(after), timestamp), FlowSinks.FLOW_STATUS);
        }
    }
}
