package io.lahar.streams.cron;

import io.lahar.core.api.Manifests;
import io.lahar.core.cron.CronAction;
import io.lahar.core.cron.CronEvent;
import io.lahar.core.cron.CronInput;
import io.lahar.core.cron.CronJobController;
import io.lahar.core.cron.CronJobInfo;
import io.lahar.core.cron.CronOutcome;
import io.lahar.schema.DeleteJob;
import io.lahar.schema.JobCommand;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Topics;
import io.lahar.streams.clock.DueIndex;
import io.lahar.streams.flow.FlowStores;
import java.time.Instant;
import java.util.Objects;
import java.util.OptionalLong;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jboss.logging.Logger;

/**
 * Runs inputs through {@link CronJobController} for one CronJob and carries out what came of
 * them: the jobs to create become SubmitJob commands on {@code lahar.job-commands} (so job
 * admission and the job engine treat them like any job), the jobs to delete DeleteJob commands;
 * the status goes to the compacted {@code lahar.cronjob-status} (a tombstone once deleted); the
 * entry is saved with its due time. Time is only ever the inputs' time.
 */
final class CronEngine {

    private static final Logger LOG = Logger.getLogger(CronEngine.class);

    private final CronJobController controller = new CronJobController();
    private final ProcessorContext<Object, Object> context;
    private final KeyValueStore<String, byte[]> store;
    private final DueIndex timers;

    CronEngine(ProcessorContext<Object, Object> context, KeyValueStore<String, byte[]> store, DueIndex timers) {
        this.context = context;
        this.store = store;
        this.timers = timers;
    }

    CronEntry load(String key) {
        byte[] bytes = store.get(key);
        return bytes == null ? CronEntry.empty() : FlowStores.decode(bytes, CronEntry.class);
    }

    void save(String key, CronEntry before, CronEntry after) {
        store.put(key, FlowStores.encode(key, after));
        timers.update(key, due(before), due(after));
    }

    static OptionalLong due(CronEntry entry) {
        return entry.live() && entry.info().due() != null
                ? OptionalLong.of(entry.info().due())
                : OptionalLong.empty();
    }

    /** Applies {@code input} to the CronJob under {@code key}, saves and emits; returns the new entry. */
    CronEntry apply(String key, CronEntry entry, CronInput input, long timestamp) {
        CronJobInfo before = entry.info();
        CronOutcome outcome = controller.apply(before, input);
        CronJobInfo after = outcome.state();
        for (CronEvent e : outcome.events()) {
            LOG.infof("cronjob %s: %s %s: %s", key, e.type(), e.reason(), e.message());
        }
        if (outcome.error() != null) {
            LOG.warnf("cronjob %s: %s", key, outcome.error());
        }
        for (CronAction action : outcome.actions()) {
            JobCommand command = switch (action) {
                case CronAction.CreateJob c ->
                    command(after, c.job().name(), "create", new SubmitJob(Manifests.toJson(c.job())));
                case CronAction.DeleteJob d ->
                    command(after, d.name(), "delete", new DeleteJob("deleted by cronjob " + key + ": " + d.reason()));
            };
            context.forward(
                    new Record<>(Topics.jobKey(command.getNamespace(), command.getName()), command, timestamp),
                    CronSinks.JOB_COMMANDS);
        }
        CronEntry next = entry.withInfo(after);
        save(key, entry, next);
        publish(key, before, after, timestamp);
        return next;
    }

    /**
     * A command about one of the CronJob's jobs. Its requestId is derived from the CronJob's uid,
     * the verb, the job and the CronJob's time (a created job's creation time), so a replay sends
     * the same ids, the job gate answers a repeated command once, and a refusal can be matched to
     * the job it concerns.
     */
    private static JobCommand command(CronJobInfo info, String job, String verb, Object body) {
        String namespace = info.cronJob().namespace();
        return JobCommand.newBuilder()
                .setRequestId(requestId(info, verb, job, info.time()))
                .setSender(sender(namespace, info.name()))
                .setNamespace(namespace)
                .setName(job)
                .setTime(Instant.ofEpochMilli(info.time()))
                .setCommand(body)
                .build();
    }

    static String requestId(CronJobInfo info, String verb, String job, long time) {
        return SENDER_PREFIX + info.cronJob().metadata().uid() + ":" + verb + ":" + job + ":" + time;
    }

    /** The sender of the engine's job commands, {@code cronjob:<namespace>/<cronjob>}: job admission's refusals come back by it. */
    static final String SENDER_PREFIX = "cronjob:";

    static String sender(String namespace, String cronJob) {
        return SENDER_PREFIX + namespace + "/" + cronJob;
    }

    /** The status record when what it shows changed; a tombstone once the CronJob is deleted. */
    private void publish(String key, CronJobInfo before, CronJobInfo after, long timestamp) {
        if (after == null || after.cronJob() == null) {
            return;
        }
        if (after.deleted()) {
            if (before != null && before.live()) {
                // A tombstone: the compacted status topic forgets the CronJob.
                context.forward(new Record<>(key, null, timestamp), CronSinks.STATUS);
            }
            return;
        }
        if (before == null || !before.live() || !Objects.equals(shown(before), shown(after))) {
            context.forward(new Record<>(key, CronCodecs.toStatusRecord(after), timestamp), CronSinks.STATUS);
        }
    }

    /** What the status record shows of the state: all but the time of the last input. */
    private static CronJobInfo shown(CronJobInfo i) {
        return new CronJobInfo(
                i.cronJob(),
                i.createdAt(),
                i.active(),
                i.lastScheduleTime(),
                i.lastSuccessfulTime(),
                i.jobs(),
                i.events(),
                i.due(),
                i.deleted(),
                0);
    }
}
