package io.lahar.scheduler.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lahar.core.scheduling.framework.SchedulerConf;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A stop while the loop starts with no broker to answer: the service's stop must not wait it out. */
class SchedulingLoopStopTest {

    @Test
    void aStopWhileInitTransactionsWaitsForAnAbsentBrokerEndsTheLoopAtOnce() throws Exception {
        int port;
        // A port nothing listens on: the producer's coordinator lookup waits its max.block.ms (60 s).
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        LoopSettings settings = new LoopSettings(
                "127.0.0.1:" + port,
                "http://127.0.0.1:" + port,
                "stop-test",
                "stop-test",
                Duration.ofSeconds(1),
                SchedulerConf.defaults(),
                1000,
                Set.of("volcano"),
                Duration.ofSeconds(30));
        SchedulingLoop loop =
                new SchedulingLoop(settings, new SchedulerMetrics(new SimpleMeterRegistry()), Clock.systemUTC());
        Thread thread = Thread.ofPlatform().name("scheduler").start(loop);
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> loop.state() == LoopState.CATCHING_UP);
            // Into initTransactions(), whose wait no consumer wake-up reaches.
            Thread.sleep(500);
            long asked = System.nanoTime();
            loop.stop();
            thread.join(Duration.ofSeconds(15));
            Duration took = Duration.ofNanos(System.nanoTime() - asked);
            assertThat(thread.isAlive())
                    .as("the loop's thread, 15 s after the stop")
                    .isFalse();
            assertThat(loop.state()).isEqualTo(LoopState.STOPPED);
            // The producer's and consumer's closes are bounded at 5 s each; max.block.ms is 60 s.
            assertThat(took).isLessThan(Duration.ofSeconds(12));
        } finally {
            loop.stop();
            thread.interrupt();
            thread.join(Duration.ofSeconds(70));
        }
    }
}
