package io.lahar.streams.cron;

import io.lahar.core.api.JobPhase;
import io.lahar.core.api.Manifests;
import io.lahar.core.cron.CronInput;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What the job lifecycle tells the CronJob engine about a Job a CronJob created, through the
 * {@code cron-job-status} repartition: its phase and when it finished, or that it is gone. JSON:
 * an internal topic, read by this engine only.
 *
 * @param ownerUid the uid in the Job's controller owner reference: a Job of an earlier CronJob
 *                 of the same name is not this one's
 * @param lastTransitionTime the Job's {@code state.lastTransitionTime} (epoch ms), null when absent
 */
public record CronObservation(
        String job, String uid, String ownerUid, JobPhase phase, Long lastTransitionTime, boolean gone, long time) {

    public CronInput input() {
        return gone
                ? new CronInput.JobGone(job, time)
                : new CronInput.JobObserved(job, uid, phase, lastTransitionTime, time);
    }

    public byte[] bytes() {
        try {
            return Manifests.jsonMapper().writeValueAsBytes(this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static CronObservation of(byte[] bytes) {
        try {
            CronObservation o = Manifests.jsonMapper().readValue(bytes, CronObservation.class);
            if (o.job() == null || o.job().isEmpty() || (!o.gone() && o.phase() == null)) {
                throw new IllegalArgumentException("a CronJob's job observation needs a job and, unless gone, a phase");
            }
            return o;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
