package io.lahar.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobFlowPhase;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.Manifests;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Invariants of the flow engine over random job histories of a DAG with a retry and an any-join. */
class FlowPropertiesTest {

    static final JobFlow FLOW = FlowDriver.flow("""
            flows:
            - name: a
              retry: {maxRetries: 1, backoff: {base: 5s}}
            - name: b
              dependsOn: {targets: [a]}
            - name: c
              dependsOn: {targets: [b]}
            - name: d
              dependsOn: {targets: [b]}
            - name: e
              dependsOn: {targets: [c, d]}
            - name: f
              dependsOn: {targets: [c, d], strategy: any}
            """);
    static final List<String> ENTRIES = List.of("a", "b", "c", "d", "e", "f");
    static final ObjectMapper JSON = Manifests.jsonMapper();

    /** One random input: a job of an entry reports a phase, or time passes ({@code entry} -1). */
    record Step(int entry, JobPhase phase, long advance) {}

    @Provide
    Arbitrary<List<Step>> scripts() {
        Arbitrary<Step> observe = Combinators.combine(
                        Arbitraries.integers().between(0, 5),
                        Arbitraries.of(
                                JobPhase.Running,
                                JobPhase.Completed,
                                JobPhase.Failed,
                                JobPhase.Aborted,
                                JobPhase.Restarting,
                                JobPhase.Pending))
                .as((e, p) -> new Step(e, p, 0));
        Arbitrary<Step> tick = Arbitraries.longs().between(0, 10_000).map(t -> new Step(-1, null, t));
        Arbitrary<Step> delete = Arbitraries.just(new Step(-2, null, 0));
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(8, observe),
                        net.jqwik.api.Tuple.of(2, tick),
                        net.jqwik.api.Tuple.of(1, delete))
                .list()
                .ofMaxSize(40);
    }

    @Property(tries = 300)
    void jobsAreCreatedOnlyWhenTheirDependenciesHoldAndFinalPhasesStay(@ForAll("scripts") List<Step> script)
            throws Exception {
        JobFlowController c = new JobFlowController();
        long time = 0;
        FlowOutcome o = c.apply(
                FlowInfo.empty(),
                new FlowInput.Submit(
                        FLOW, ENTRIES.stream().map(FlowDriver::template).toList(), time));
        FlowInfo live = o.state();
        FlowInfo stored = roundTrip(live);
        Set<String> exist = new HashSet<>();
        apply(o, FlowInfo.empty(), exist);
        for (Step s : script) {
            FlowInput in = switch (s.entry()) {
                case -1 -> new FlowInput.Tick(time += s.advance());
                case -2 -> new FlowInput.Delete(time);
                default ->
                    new FlowInput.JobStatusObserved("test-" + ENTRIES.get(s.entry()), s.phase(), Map.of(), 0, time);
            };
            FlowInfo before = live;
            o = c.apply(live, in);
            FlowOutcome replayed = c.apply(stored, in);
            assertThat(JSON.writeValueAsString(replayed))
                    .as("a stored state behaves as the live one")
                    .isEqualTo(JSON.writeValueAsString(o));
            apply(o, before, exist);
            live = o.state();
            stored = roundTrip(replayed.state());
            if (before.phase() == JobFlowPhase.Terminating) {
                assertThat(live.phase()).isEqualTo(JobFlowPhase.Terminating);
                assertThat(o.actions()).isEmpty();
            } else if (before.phase().isFinished()) {
                assertThat(live.phase()).isIn(before.phase(), JobFlowPhase.Terminating);
                assertThat(o.actions()).allMatch(a -> a instanceof FlowAction.DeleteJob);
            }
            live.jobs()
                    .values()
                    .forEach(j -> assertThat(j.runningHistories()).hasSizeLessThanOrEqualTo(FlowJob.MAX_HISTORIES));
            if (live.phase() == JobFlowPhase.Succeed) {
                assertThat(live.jobs().values())
                        .allMatch(
                                j -> j.state() == EntryState.Skipped || (j.state() == EntryState.Created && j.ended()));
            }
        }
    }

    /** Checks each action against the world and the state before it, then applies it to the world. */
    private static void apply(FlowOutcome o, FlowInfo before, Set<String> exist) {
        for (FlowAction a : o.actions()) {
            switch (a) {
                case FlowAction.CreateJob cj -> {
                    String name = cj.job().name();
                    assertThat(exist.add(name))
                            .as("%s is created while it exists", name)
                            .isTrue();
                    String entry = name.substring("test-".length());
                    FlowJob prior = before.jobs().get(entry);
                    if (prior != null && prior.state() == EntryState.Waiting) {
                        var deps = FLOW.spec()
                                .flowsOrEmpty()
                                .get(ENTRIES.indexOf(entry))
                                .dependsOn();
                        if (deps != null) {
                            long completed = deps.targetsOrEmpty().stream()
                                    .filter(t -> o.state().jobs().get(t).ended()
                                            && o.state().jobs().get(t).phase() == JobPhase.Completed)
                                    .count();
                            assertThat(completed)
                                    .as("targets of %s completed", entry)
                                    .isGreaterThanOrEqualTo(
                                            deps.strategy().equals("any")
                                                    ? 1
                                                    : deps.targetsOrEmpty().size());
                        }
                    }
                }
                case FlowAction.DeleteJob dj ->
                    assertThat(exist.remove(dj.name()))
                            .as("%s is deleted while it does not exist", dj.name())
                            .isTrue();
            }
        }
    }

    private static FlowInfo roundTrip(FlowInfo s) throws Exception {
        return JSON.readValue(JSON.writeValueAsString(s), FlowInfo.class);
    }
}
