package io.lahar.system.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TallyTest {

    private static final long START = 1_000_000;

    @Test
    void aWindowCountsRatesPerSecondAndTheLatenciesOfTheJobsSubmittedInIt() {
        Tally tally = new Tally(START, 100);
        for (int i = 0; i < 10; i++) {
            tally.submitted("j" + i, START + 10_000 + i * 100);
            tally.jobRunning("j" + i, START + 10_000 + i * 100 + (i + 1) * 100L); // 100 .. 1000 ms
            tally.jobCompleted(START + 12_000 + i);
        }
        for (int i = 0; i < 400; i++) {
            tally.bound(START + 10_000 + i * 10);
        }
        tally.submitted("late", START + 30_000); // outside the window

        Tally.Window w = tally.window(START + 10_000, START + 14_000);

        assertThat(w.submitted()).isEqualTo(10);
        assertThat(w.reachedRunning()).isEqualTo(10);
        assertThat(w.podsBoundPerSecond()).isEqualTo(100.0);
        assertThat(w.jobsCompletedPerSecond()).isEqualTo(2.5);
        assertThat(w.p50()).isEqualTo(500);
        assertThat(w.p99()).isEqualTo(1000);
        assertThat(w.max()).isEqualTo(1000);
        assertThat(tally.notRunning(START, START + 40_000)).isEqualTo(1);
    }

    @Test
    void aJobsFirstRunningCountsNotARestartsSecond() {
        Tally tally = new Tally(START, 10);
        tally.submitted("j", START);
        tally.jobRunning("j", START + 300);
        tally.jobRunning("j", START + 5_000);

        assertThat(tally.window(START, START + 10_000).p99()).isEqualTo(300);
    }

    @Test
    void occupancyIsThePodsRunningAndNotYetGone() {
        Tally tally = new Tally(START, 10);
        tally.podRunning("a", START);
        tally.podRunning("a", START + 10); // a second Running event of the same pod
        tally.podRunning("b", START);
        tally.podGone("a");

        assertThat(tally.occupancy()).isEqualTo(1);
        assertThat(tally.window(START, START + 1_000).podsStartedPerSecond()).isEqualTo(2.0);
    }

    @Test
    void percentilesAreNearestRankAndNoneWithoutValues() {
        long[] hundred = new long[100];
        for (int i = 0; i < 100; i++) {
            hundred[i] = i + 1;
        }
        assertThat(Tally.percentile(hundred, 50)).isEqualTo(50);
        assertThat(Tally.percentile(hundred, 99)).isEqualTo(99);
        assertThat(Tally.percentile(new long[] {7}, 99)).isEqualTo(7);
        assertThat(Tally.percentile(new long[0], 50)).isEqualTo(-1);
    }

    @Test
    void cpuTicksAreUtimePlusStimeCountedFromTheLastParenthesis() {
        String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 40 0 12345";
        assertThat(SystemProcesses.cpuTicks(stat)).isEqualTo(325);
    }
}
