package io.lahar.streams.kafka;

import io.lahar.schema.deadletter.DeadLetters;
import io.lahar.schema.deadletter.Failures;
import java.time.Duration;
import java.util.Optional;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.jboss.logging.Logger;

/**
 * What becomes of a stream thread that an exception kills: it is replaced
 * ({@link StreamThreadExceptionResponse#REPLACE_THREAD}), never the whole client stopped in ERROR.
 * Kafka Streams closes the dead thread's tasks without committing, so their transaction is rolled
 * back, and the new thread reads their records again from the last commit:
 * <ul>
 *   <li>after an outage (the registry or the broker did not answer, {@link Failures#isTransient})
 *   that is the retry: nothing is dead-lettered, and the replacement waits a pause that grows from
 *   {@link #FIRST_PAUSE} to {@link #MAX_PAUSE} while the failures follow each other;</li>
 *   <li>after anything else, the record the thread was processing is fatal ({@link FatalRecords}):
 *   read again, it is dead-lettered with this exception as the reason, so it cannot kill the thread
 *   twice.</li>
 * </ul>
 * The global thread (the global stores' reader) cannot be replaced; its processors catch every
 * failure themselves ({@link GlobalStoreUpdater}), so one that reaches here is a fault of Kafka
 * Streams itself, and the client shuts down (liveness then fails, and the service is restarted).
 */
public final class StreamThreadFailures implements StreamsUncaughtExceptionHandler {

    private static final Logger LOG = Logger.getLogger(StreamThreadFailures.class);
    static final Duration FIRST_PAUSE = Duration.ofSeconds(1);
    static final Duration MAX_PAUSE = Duration.ofSeconds(30);
    /** Failures further apart than this start the pause from the beginning. */
    static final Duration CALM = Duration.ofMinutes(5);

    private final Guards guards;
    private long lastFailure;
    private int inARow;

    public StreamThreadFailures(Guards guards) {
        this.guards = guards;
    }

    @Override
    public StreamThreadExceptionResponse handle(Throwable error) {
        String thread = Thread.currentThread().getName();
        if (thread.endsWith("GlobalStreamThread")) {
            LOG.errorf(error, "the global stream thread failed and cannot be replaced; the streams client shuts down");
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        Duration pause = pause();
        if (Failures.isTransient(error)) {
            LOG.warnf(
                    "stream thread %s stopped on an outage (%s); its records since the last commit are read again by a new"
                            + " thread in %d ms",
                    thread, DeadLetters.reason(error), pause.toMillis());
        } else {
            Optional<String> record = guards.fatal().killed(error);
            LOG.errorf(
                    error,
                    "stream thread %s was killed%s; a new thread replaces it in %d ms%s",
                    thread,
                    record.map(r -> " processing " + r).orElse(""),
                    pause.toMillis(),
                    record.isPresent() ? ", and dead-letters that record when it reads it again" : "");
        }
        if (!guards.stopping()) {
            try {
                Thread.sleep(pause.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return StreamThreadExceptionResponse.REPLACE_THREAD;
    }

    /**
     * The pause before this replacement (none while the client shuts down): doubling while failures
     * follow each other, from the first again after a calm.
     */
    private synchronized Duration pause() {
        long now = System.nanoTime();
        inARow = lastFailure != 0 && now - lastFailure < CALM.toNanos() ? inARow + 1 : 0;
        lastFailure = now;
        long millis = FIRST_PAUSE.toMillis() << Math.min(inARow, 5);
        return Duration.ofMillis(Math.min(millis, MAX_PAUSE.toMillis()));
    }
}
