package io.lahar.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.schema.PollWatch.Notice;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

/**
 * {@link PollWatch} over metrics as a streams client reports them, watching each stream thread's main
 * consumer as the streams-app does: only the watched consumers count; a held thread is reported once past the warning, once past the limit (then
 * not live), and once when it polls again.
 */
class PollWatchTest {

    private static final String THREAD = "lahar-streams-1a2b-StreamThread-1";

    private final Map<MetricName, Metric> metrics = new HashMap<>();
    /** As the streams-app watches: each stream thread's main consumer, named {@code <thread>-consumer}. */
    private final PollWatch watch = new PollWatch(
            () -> metrics,
            client -> client.endsWith("-StreamThread-1-consumer") || client.endsWith("-StreamThread-2-consumer")
                    ? client.substring(0, client.length() - "-consumer".length())
                    : null,
            thread -> "  (WAITING)\n\tat held.in.Somewhere(" + thread + ")",
            Duration.ofSeconds(60),
            Duration.ofSeconds(300));

    private void lastPoll(String client, String group, double seconds) {
        MetricName name = new MetricName(PollWatch.LAST_POLL, group, "", Map.of("client-id", client));
        metrics.put(name, new Metric() {
            @Override
            public MetricName metricName() {
                return name;
            }

            @Override
            public Object metricValue() {
                return seconds;
            }
        });
    }

    @Test
    void onlyTheWatchedConsumersCount() {
        lastPoll(THREAD + "-consumer", "consumer-metrics", 7);
        lastPoll(THREAD + "-restore-consumer", "consumer-metrics", 900);
        lastPoll("lahar-streams-1a2b-global-consumer", "consumer-metrics", 900);
        lastPoll("lahar-rest-results", "consumer-metrics", 900);
        lastPoll("lahar-streams-1a2b-StreamThread-2-consumer", "consumer-metrics", -1); // never polled yet
        lastPoll("lahar-streams-1a2b-StreamThread-1-consumer", "other-group", 900);

        assertThat(watch.sincePoll()).containsExactly(Map.entry(THREAD, 7L));
        assertThat(watch.live()).isTrue();
        assertThat(watch.check()).isEmpty();
    }

    @Test
    void aHeldThreadIsNamedWithItsStackPastTheWarningThenPastTheLimitThenWhenItPollsAgain() {
        lastPoll(THREAD + "-consumer", "consumer-metrics", 59);
        assertThat(watch.check()).isEmpty();

        lastPoll(THREAD + "-consumer", "consumer-metrics", 60);
        List<Notice> warned = watch.check();
        assertThat(warned).singleElement().satisfies(n -> {
            assertThat(n.level()).isEqualTo(Level.WARNING);
            assertThat(n.message())
                    .startsWith("thread " + THREAD + " has not polled Kafka for 60 s")
                    .contains("past 300 s the service is no longer live")
                    .endsWith("\tat held.in.Somewhere(" + THREAD + ")");
        });
        assertThat(watch.live()).isTrue();

        lastPoll(THREAD + "-consumer", "consumer-metrics", 200);
        assertThat(watch.check()).as("said once").isEmpty();

        lastPoll(THREAD + "-consumer", "consumer-metrics", 300);
        assertThat(watch.live()).isFalse();
        assertThat(watch.check()).singleElement().satisfies(n -> {
            assertThat(n.level()).isEqualTo(Level.ERROR);
            assertThat(n.message())
                    .startsWith("thread " + THREAD + " has not polled Kafka for 300 s, past max.poll.interval.ms")
                    .contains("no longer live")
                    .endsWith("\tat held.in.Somewhere(" + THREAD + ")");
        });
        lastPoll(THREAD + "-consumer", "consumer-metrics", 400);
        assertThat(watch.check()).as("said once").isEmpty();

        lastPoll(THREAD + "-consumer", "consumer-metrics", 0);
        assertThat(watch.live()).isTrue();
        assertThat(watch.check()).containsExactly(new Notice(Level.INFO, "thread " + THREAD + " polls Kafka again"));
        assertThat(watch.check()).isEmpty();

        lastPoll(THREAD + "-consumer", "consumer-metrics", 61);
        assertThat(watch.check())
                .as("a second hold is reported afresh")
                .extracting(Notice::level)
                .containsExactly(Level.WARNING);
    }

    @Test
    void aThreadHeldPastTheLimitAtFirstSightIsReportedOnceAsNotLive() {
        lastPoll(THREAD + "-consumer", "consumer-metrics", 301);
        assertThat(watch.check()).extracting(Notice::level).containsExactly(Level.ERROR);
        assertThat(watch.check()).isEmpty();
    }

    @Test
    void aReplacedThreadIsForgotten() {
        lastPoll(THREAD + "-consumer", "consumer-metrics", 100);
        assertThat(watch.check()).extracting(Notice::level).containsExactly(Level.WARNING);
        metrics.clear();
        lastPoll("lahar-streams-1a2b-StreamThread-2-consumer", "consumer-metrics", 0);
        assertThat(watch.check()).isEmpty();
        assertThat(watch.live()).isTrue();
        // The old name held again later (a thread of the same name is a new one): reported afresh.
        lastPoll(THREAD + "-consumer", "consumer-metrics", 100);
        assertThat(watch.check()).extracting(Notice::level).containsExactly(Level.WARNING);
    }

    @Test
    void theStackOfARunningThreadAndOfNone() throws Exception {
        Thread held = new Thread(
                () -> {
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "stream-thread-watch-test-held");
        held.start();
        try {
            // Asleep once its state says so (on its way into the sleep it is still RUNNABLE).
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (held.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(PollWatch.stackOf(held.getName()))
                    .startsWith("  (TIMED_WAITING)\n\tat ")
                    .contains("Thread.sleep", "PollWatchTest");
        } finally {
            held.interrupt();
            held.join();
        }
        assertThat(PollWatch.stackOf("no-such-thread")).isEqualTo("  (no thread of that name runs)");
    }

    @Test
    void theLimitIsNotBeforeTheWarning() {
        assertThatThrownBy(
                        () -> new PollWatch(Map::of, c -> c, t -> "", Duration.ofSeconds(60), Duration.ofSeconds(30)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PollWatch(Map::of, c -> c, t -> "", Duration.ZERO, Duration.ofSeconds(30)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
