package io.lahar.core.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.ConcurrencyPolicy;
import io.lahar.core.api.CronJob;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.cron.ConstantDelaySchedule;
import io.lahar.core.cron.CronParser;
import io.lahar.core.cron.Schedule;
import io.lahar.core.cron.ScheduleException;
import io.lahar.core.cron.SpecSchedule;
import io.lahar.core.cron.Zones;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Volcano's CronJob webhook (cronjobs/validate/admit_cronjob.go) and the defaults of its CRD:
 * the schedule parses as robfig/cron's standard syntax without a TZ prefix, the time zone is a
 * known IANA zone other than Local, and the name leaves room for the {@code -<minutes>} suffix of
 * the jobs. Lahar adds what makes every run admissible and bounded: the job template is validated
 * as a Job spec (as job admission will see the created jobs), the numbers are in range, and a
 * schedule that can never fire, or fires more than once a minute, is refused.
 */
public final class CronJobAdmission {

    /** Kubernetes' CronJob name budget: a job name is {@code <cronjob>-<minutes>}, at most 63 characters. */
    static final int MAX_TOTAL_LENGTH = 63;

    static final int MAX_SUFFIX_LENGTH = 11;
    static final int MAX_NAME_LENGTH = MAX_TOTAL_LENGTH - MAX_SUFFIX_LENGTH;
    /** Lahar's bound on each history limit: the finished jobs kept are part of the CronJob's state. */
    public static final int MAX_HISTORY_LIMIT = 100;

    public static final int DEFAULT_SUCCESSFUL_HISTORY = 3;
    public static final int DEFAULT_FAILED_HISTORY = 1;

    private static final Pattern TIME_ZONE_PART = Pattern.compile("[A-Za-z.\\-_0-9+]{1,14}");

    private CronJobAdmission() {}

    public static AdmissionResult<CronJob> create(CronJob cronJob, AdmissionContext ctx) {
        CronJob defaulted = defaults(cronJob);
        Violations v = new Violations();
        validateName(defaulted, v);
        if (defaulted.spec() == null) {
            v.add("spec", "required");
        } else {
            validateSpec(defaulted.name(), defaulted.spec(), ctx.limits(), v);
        }
        return AdmissionResult.of(defaulted, v.list());
    }

    /** Volcano validates an update as a create; the name is the object's identity. */
    public static AdmissionResult<CronJob> update(CronJob old, CronJob cronJob, AdmissionContext ctx) {
        AdmissionResult<CronJob> r = create(cronJob, ctx);
        if (old.name().equals(cronJob.name())) {
            return r;
        }
        List<Violation> all = new java.util.ArrayList<>(r.violations());
        all.add(0, new Violation("metadata.name", "may not be changed on update (was \"" + old.name() + "\")"));
        return AdmissionResult.reject(all);
    }

    /** The CRD's defaults: concurrencyPolicy Allow, suspend false, history limits 3 and 1. */
    public static CronJob defaults(CronJob cronJob) {
        CronJob.CronJobSpec s = cronJob.spec();
        if (s == null) {
            return cronJob;
        }
        if (s.concurrencyPolicy() == null || s.concurrencyPolicy().isEmpty()) {
            s = s.withConcurrencyPolicy(ConcurrencyPolicy.Allow.name());
        }
        if (s.suspend() == null) {
            s = s.withSuspend(false);
        }
        s = s.withHistoryLimits(
                s.successfulJobsHistoryLimit() == null ? DEFAULT_SUCCESSFUL_HISTORY : s.successfulJobsHistoryLimit(),
                s.failedJobsHistoryLimit() == null ? DEFAULT_FAILED_HISTORY : s.failedJobsHistoryLimit());
        return cronJob.withSpec(s);
    }

    /** Volcano's validateCronJobName, and the name must make valid job names. */
    static void validateName(CronJob cronJob, Violations v) {
        String name = cronJob.name();
        if (name.isEmpty()) {
            v.add("metadata.name", "required");
        } else if (name.length() > MAX_NAME_LENGTH) {
            v.add(
                    "metadata.name",
                    "cronJob name must be no more than " + MAX_NAME_LENGTH
                            + " characters to accommodate job name suffix (max " + MAX_TOTAL_LENGTH + " total)");
        } else if (!Names.dns1123Subdomain(name).isEmpty()) {
            // Volcano checks a qualified name; the jobs' names must also be DNS subdomains, so this is that check.
            v.add(
                    "metadata.name",
                    "invalid cronJob name \"" + name + "\": " + Names.join(Names.dns1123Subdomain(name)));
        }
        if (cronJob.metadata() != null && cronJob.metadata().labels() != null) {
            Names.labels(Manifests.jsonMapper().valueToTree(cronJob.metadata().labels()), "metadata.labels", v);
        }
        String ns = cronJob.metadata() == null ? null : cronJob.metadata().namespace();
        if (ns != null && !ns.isEmpty() && !Names.dns1123Label(ns).isEmpty()) {
            v.add("metadata.namespace", "invalid namespace \"" + ns + "\": " + Names.join(Names.dns1123Label(ns)));
        }
    }

    static void validateSpec(String name, CronJob.CronJobSpec spec, AdmissionLimits limits, Violations v) {
        validateSchedule(spec.schedule(), v);
        validateTimeZone(spec.timeZone(), v);
        if (spec.startingDeadlineSeconds() != null && spec.startingDeadlineSeconds() < 0) {
            v.add("spec.startingDeadlineSeconds", "must be >= 0");
        }
        if (ConcurrencyPolicy.of(spec.concurrencyPolicy()).isEmpty()) {
            v.add(
                    "spec.concurrencyPolicy",
                    PodTemplateValidation.unsupported(
                            spec.concurrencyPolicy(),
                            Arrays.stream(ConcurrencyPolicy.values())
                                    .map(Enum::name)
                                    .toList()));
        }
        historyLimit(spec.successfulJobsHistoryLimit(), "spec.successfulJobsHistoryLimit", v);
        historyLimit(spec.failedJobsHistoryLimit(), "spec.failedJobsHistoryLimit", v);
        validateJobTemplate(name, spec.jobTemplate(), limits, v);
    }

    private static void historyLimit(Integer limit, String path, Violations v) {
        if (limit == null) {
            return;
        }
        if (limit < 0) {
            v.add(path, "must be >= 0");
        } else if (limit > MAX_HISTORY_LIMIT) {
            v.add(
                    path,
                    "must be no more than " + MAX_HISTORY_LIMIT
                            + " (the finished jobs kept are part of the CronJob's state)");
        }
    }

    static void validateSchedule(String schedule, Violations v) {
        if (schedule == null || schedule.isEmpty()) {
            v.add("spec.schedule", "schedule is required, but got empty");
            return;
        }
        if (schedule.contains("TZ")) {
            v.add(
                    "spec.schedule",
                    "schedule should not contain TZ or CRON_TZ, TZ should only be set in the timeZone field");
            return;
        }
        Schedule parsed;
        try {
            parsed = CronParser.parseStandard(schedule, ZoneOffset.UTC);
        } catch (ScheduleException e) {
            v.add("spec.schedule", "schedule is not a valid cron expression: " + e.getMessage());
            return;
        }
        String never = parsed instanceof SpecSchedule spec ? spec.neverFires() : null;
        if (never != null) {
            v.add("spec.schedule", "schedule \"" + schedule + "\" never fires: " + never);
        }
        if (parsed instanceof ConstantDelaySchedule c && c.delay().compareTo(Duration.ofMinutes(1)) < 0) {
            v.add(
                    "spec.schedule",
                    "schedule \"" + schedule + "\" fires more than once a minute, and the jobs of one"
                            + " minute would have the same name (<cronjob>-<minutes since the epoch>): use @every 1m or more");
        }
    }

    /** Volcano's time zone checks: not empty, IANA-shaped parts, not Local, in the zone database. */
    static void validateTimeZone(String timeZone, Violations v) {
        if (timeZone == null) {
            return;
        }
        if (timeZone.isEmpty()) {
            v.add("spec.timeZone", "timeZone must be nil or non-empty string, got empty string");
            return;
        }
        for (String part : timeZone.split("/", -1)) {
            if (part.equals(".")
                    || part.equals("..")
                    || part.startsWith("-")
                    || !TIME_ZONE_PART.matcher(part).matches()) {
                v.add(
                        "spec.timeZone",
                        "unknown timeZone \"" + timeZone + "\": each part of the name must be 1 to 14"
                                + " letters, digits or . - _ +, not . or .., and not start with -");
                break;
            }
        }
        if (timeZone.toLowerCase(Locale.ROOT).equals("local")) {
            v.add("spec.timeZone", "timeZone can't be Local, and must be defined in https://www.iana.org/time-zones");
        } else if (Zones.load(timeZone).isEmpty()) {
            v.add("spec.timeZone", "invalid timeZone \"" + timeZone + "\": not in the time zone database");
        }
    }

    /**
     * Volcano's getJobFromTemplate copies only the labels and annotations of the template's metadata
     * and sets the scheduled-time annotation itself: anything else given there would be dropped.
     */
    static void validateTemplateMetadata(ObjectMeta meta, Violations v) {
        if (meta == null) {
            return;
        }
        JsonNode tree = Manifests.jsonMapper().valueToTree(meta);
        for (Map.Entry<String, JsonNode> field : tree.properties()) {
            String key = field.getKey();
            boolean empty = field.getValue().isNull()
                    || (field.getValue().isContainerNode() && field.getValue().isEmpty());
            if (!empty && !key.equals("labels") && !key.equals("annotations")) {
                v.add(
                        "spec.jobTemplate.metadata." + key,
                        "not carried to the jobs: only the template's labels and annotations"
                                + " are copied; each job is named <cronjob>-<scheduled time in minutes since the epoch>, in the"
                                + " CronJob's namespace, owned by the CronJob");
            }
        }
        if (meta.annotationsOrEmpty().containsKey(CronJob.SCHEDULED_TIMESTAMP_ANNOTATION)) {
            v.add(
                    "spec.jobTemplate.metadata.annotations." + CronJob.SCHEDULED_TIMESTAMP_ANNOTATION,
                    "set by the controller on each job (its scheduled time): it cannot be given in the template");
        }
    }

    /**
     * The template is admitted as job admission will admit its jobs: its labels as a job's labels,
     * its spec (defaulted) as a Job spec of a job named {@code <cronjob>-<10 digits>}, so pod names
     * fit; the queue is checked when each job is created (it may be opened or closed meanwhile).
     */
    static void validateJobTemplate(
            String name, CronJob.JobTemplateSpec template, AdmissionLimits limits, Violations v) {
        if (template == null) {
            v.add("spec.jobTemplate", "required");
            return;
        }
        if (template.metadata() != null && template.metadata().labels() != null) {
            Names.labels(
                    Manifests.jsonMapper().valueToTree(template.metadata().labels()),
                    "spec.jobTemplate.metadata.labels",
                    v);
        }
        validateTemplateMetadata(template.metadata(), v);
        if (template.metadata() != null) {
            JobAdmission.validateCooldownTime(
                    template.metadata().labels(), template.metadata().annotations(), "spec.jobTemplate.metadata.", v);
            JobAdmission.validateRevocable(template.metadata().annotations(), "spec.jobTemplate.metadata.", v);
        }
        JobSpec spec = template.spec() == null ? null : JobDefaults.apply(template.spec());
        Violations inner = new Violations();
        JobSpecValidation.validate(
                name.isEmpty() ? "" : name + "-" + "0".repeat(MAX_SUFFIX_LENGTH - 1), spec, limits, inner);
        for (Violation x : inner.list()) {
            v.add("spec.jobTemplate." + x.path(), x.message());
        }
    }
}
