package io.lahar.scheduler.loop;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Runs one scheduling loop after another on the calling thread: a loop that ends {@link
 * LoopState#FAILED} is replaced by a new one after a pause, so a broker outage longer than the
 * producer's {@code max.block.ms} (a timed-out {@code abortTransaction()}, {@code
 * initTransactions()} or metadata read) no longer stops scheduling for good while the process lives
 * on. The new loop has new clients: its {@code initTransactions()} fences and aborts whatever the
 * old producer left open, and it rebuilds its cache from the log, as on every start.
 *
 * <p>The pause doubles from {@code firstPause} up to {@code maxPause}, and starts again from {@code
 * firstPause} after a loop that had been active for {@code steady}: a broker back for good is used
 * at once, one that keeps failing is not hammered. A loop that is fenced or stopped is not
 * replaced; neither is one after {@link #stop()}, which the service calls on deposition and on
 * shutdown, so loops run only while this instance should run them.
 */
public final class LoopSupervisor<L extends LoopSupervisor.Supervised> implements Runnable {

    /** One life of a loop, as the supervisor sees it. */
    public interface Supervised extends Runnable {
        LoopState state();

        /** Asks the loop to stop; its {@link #run()} returns soon after. */
        void stop();

        /** How long it has been (or was, once ended) {@link LoopState#ACTIVE}; zero if never. */
        Duration activeFor();
    }

    private static final Logger LOG = Logger.getLogger(LoopSupervisor.class);

    private final Supplier<L> loops;
    private final Runnable onRestart;
    private final Backoff backoff;

    private volatile L current;
    private volatile boolean crashed;
    private volatile long restarts;

    /**
     * @param loops     makes a new loop (new clients) for each life
     * @param onRestart runs once per replaced loop (the metrics' counter)
     */
    public LoopSupervisor(Supplier<L> loops, Runnable onRestart) {
        this(loops, onRestart, Backoff.FIRST, Backoff.MAX, Backoff.STEADY);
    }

    LoopSupervisor(Supplier<L> loops, Runnable onRestart, Duration firstPause, Duration maxPause, Duration steady) {
        this.loops = loops;
        this.onRestart = onRestart;
        this.backoff = new Backoff(firstPause, maxPause, steady);
    }

    /**
     * The current loop's state, but {@link LoopState#RESTARTING} for a failed loop that a new one
     * replaces, and {@link LoopState#STOPPED} for one that none replaces because of {@link #stop()}
     * (a deposed standby is not dead); {@link LoopState#FAILED} only when no restart can help (a
     * loop could not be made, or a JVM {@link Error}).
     */
    public LoopState state() {
        if (crashed) return LoopState.FAILED;
        L l = current;
        if (l == null) return LoopState.NEW;
        LoopState s = l.state();
        if (s != LoopState.FAILED) return s;
        return backoff.stopped() ? LoopState.STOPPED : LoopState.RESTARTING;
    }

    /** The loop of the current life, if one started. */
    public Optional<L> current() {
        return Optional.ofNullable(current);
    }

    /** How many failed loops were replaced. */
    public long restarts() {
        return restarts;
    }

    /** Stops the current loop and replaces none; {@link #run()} returns once it ended. */
    public void stop() {
        backoff.stop();
        L l = current;
        if (l != null) l.stop();
    }

    @Override
    public void run() {
        while (!backoff.stopped()) {
            L loop = create();
            current = loop;
            // stop() may have read the previous loop: this one must see the request too.
            if (backoff.stopped()) loop.stop();
            try {
                loop.run();
            } catch (Error e) {
                crashed = true;
                throw e;
            } catch (RuntimeException e) {
                // A loop records its own end; one that threw past it failed all the same.
                LOG.error("scheduling loop ended with an error", e);
            }
            if (backoff.stopped() || !failed(loop)) return;
            LOG.warnf(
                    "scheduling loop failed; a new one starts in %d ms",
                    backoff.next(loop.activeFor()).toMillis());
            if (!backoff.pause()) return;
            restarts++;
            onRestart.run();
        }
    }

    /** A loop that cannot even be made (its settings) will not be made by retrying: liveness goes down. */
    private L create() {
        try {
            return loops.get();
        } catch (RuntimeException | Error e) {
            crashed = true;
            throw e;
        }
    }

    private static boolean failed(Supervised loop) {
        LoopState s = loop.state();
        return s != LoopState.FENCED && s != LoopState.STOPPED;
    }
}
