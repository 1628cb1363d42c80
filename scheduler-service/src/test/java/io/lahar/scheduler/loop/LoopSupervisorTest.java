package io.lahar.scheduler.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Replaces failed loops with new ones after a growing pause, and nothing else. */
class LoopSupervisorTest {

    /** A loop that ends as told: at once in a given state, or when stopped. */
    static final class FakeLoop implements LoopSupervisor.Supervised {
        private final LoopState end;
        private final Duration activeFor;
        private final CountDownLatch stopped = new CountDownLatch(1);
        private volatile LoopState state = LoopState.NEW;
        final long startedNanos = System.nanoTime();
        volatile long ranNanos;

        FakeLoop(LoopState end, Duration activeFor) {
            this.end = end;
            this.activeFor = activeFor;
        }

        @Override
        public void run() {
            ranNanos = System.nanoTime();
            if (end != null) {
                state = end;
                return;
            }
            state = LoopState.ACTIVE;
            try {
                stopped.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            state = LoopState.STOPPED;
        }

        @Override
        public LoopState state() {
            return state;
        }

        @Override
        public void stop() {
            stopped.countDown();
        }

        @Override
        public Duration activeFor() {
            return activeFor;
        }
    }

    private final List<FakeLoop> made = new ArrayList<>();
    private final AtomicInteger restarted = new AtomicInteger();

    private LoopSupervisor<FakeLoop> supervisor(Deque<FakeLoop> plan, Duration first, Duration max, Duration steady) {
        return new LoopSupervisor<>(
                () -> {
                    FakeLoop l = plan.isEmpty() ? new FakeLoop(null, Duration.ZERO) : plan.poll();
                    synchronized (made) {
                        made.add(l);
                    }
                    return l;
                },
                restarted::incrementAndGet,
                first,
                max,
                steady);
    }

    private static FakeLoop failing() {
        return new FakeLoop(LoopState.FAILED, Duration.ZERO);
    }

    @Test
    void aFailedLoopIsReplacedAfterAPauseThatDoublesUpToItsCeiling() throws Exception {
        Deque<FakeLoop> plan = new ArrayDeque<>(List.of(failing(), failing(), failing(), failing()));
        LoopSupervisor<FakeLoop> s =
                supervisor(plan, Duration.ofMillis(100), Duration.ofMillis(300), Duration.ofHours(1));
        Thread t = Thread.ofPlatform().start(s);
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> s.state() == LoopState.ACTIVE);
            assertThat(made).hasSize(5);
            assertThat(s.restarts()).isEqualTo(4);
            assertThat(restarted).hasValue(4);
            List<Long> gaps = new ArrayList<>();
            for (int i = 1; i < made.size(); i++) {
                gaps.add(TimeUnit.NANOSECONDS.toMillis(made.get(i).ranNanos - made.get(i - 1).ranNanos));
            }
            // 100, 200, then 300 twice: doubled, capped.
            assertThat(gaps.get(0)).isBetween(90L, 190L);
            assertThat(gaps.get(1)).isBetween(190L, 290L);
            assertThat(gaps.get(2)).isBetween(290L, 390L);
            assertThat(gaps.get(3)).isBetween(290L, 390L);
        } finally {
            s.stop();
            t.join(Duration.ofSeconds(5));
        }
        assertThat(t.isAlive()).isFalse();
        assertThat(s.state()).isEqualTo(LoopState.STOPPED);
    }

    @Test
    void aLoopThatWasActiveForAWhileResetsThePause() throws Exception {
        Deque<FakeLoop> plan = new ArrayDeque<>(
                List.of(failing(), failing(), failing(), new FakeLoop(LoopState.FAILED, Duration.ofSeconds(5))));
        LoopSupervisor<FakeLoop> s =
                supervisor(plan, Duration.ofMillis(100), Duration.ofSeconds(10), Duration.ofSeconds(5));
        Thread t = Thread.ofPlatform().start(s);
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> s.state() == LoopState.ACTIVE);
            long lastGap = TimeUnit.NANOSECONDS.toMillis(made.get(4).ranNanos - made.get(3).ranNanos);
            assertThat(lastGap).as("after 100, 200, 400: back to 100").isBetween(90L, 190L);
        } finally {
            s.stop();
            t.join(Duration.ofSeconds(5));
        }
    }

    @Test
    void whileARestartIsPendingItReportsRestartingAndStopEndsThePause() throws Exception {
        Deque<FakeLoop> plan = new ArrayDeque<>(List.of(failing()));
        LoopSupervisor<FakeLoop> s =
                supervisor(plan, Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofHours(1));
        Thread t = Thread.ofPlatform().start(s);
        await().atMost(Duration.ofSeconds(5)).until(() -> s.state() == LoopState.RESTARTING);

        long started = System.nanoTime();
        s.stop();
        t.join(Duration.ofSeconds(5));

        assertThat(t.isAlive()).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
        assertThat(made).as("no loop after stop").hasSize(1);
        assertThat(s.restarts()).isZero();
        assertThat(s.state())
                .as("not failed for good: stopped, as a deposed standby")
                .isEqualTo(LoopState.STOPPED);
    }

    @Test
    void aFencedOrStoppedLoopIsNotReplaced() throws Exception {
        for (LoopState end : List.of(LoopState.FENCED, LoopState.STOPPED)) {
            made.clear();
            Deque<FakeLoop> plan = new ArrayDeque<>(List.of(new FakeLoop(end, Duration.ZERO)));
            LoopSupervisor<FakeLoop> s =
                    supervisor(plan, Duration.ofMillis(10), Duration.ofMillis(10), Duration.ofHours(1));
            Thread t = Thread.ofPlatform().start(s);
            t.join(Duration.ofSeconds(5));
            assertThat(t.isAlive()).as("%s ends the supervisor", end).isFalse();
            assertThat(made).hasSize(1);
            assertThat(s.state()).isEqualTo(end);
            assertThat(s.restarts()).isZero();
        }
    }

    @Test
    void stopReachesALoopStartedWhileItCame() throws Exception {
        Deque<FakeLoop> plan = new ArrayDeque<>();
        LoopSupervisor<FakeLoop> s =
                supervisor(plan, Duration.ofMillis(10), Duration.ofMillis(10), Duration.ofHours(1));
        s.stop();
        Thread t = Thread.ofPlatform().start(s);
        t.join(Duration.ofSeconds(5));
        assertThat(t.isAlive()).isFalse();
        assertThat(made).as("no loop after stop").isEmpty();
        assertThat(s.state()).isEqualTo(LoopState.NEW);
    }
}
