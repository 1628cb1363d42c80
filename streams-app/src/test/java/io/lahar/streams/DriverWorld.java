package io.lahar.streams;

import io.lahar.core.sim.ScriptStep;
import io.lahar.schema.CreatePod;
import io.lahar.schema.DeletePod;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.SchedulerDecision;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;

import java.util.Map;
import java.util.TreeMap;

/**
 * The simulator's instant world, played against the topology under TopologyTestDriver: pods the
 * engine asks for exist at once (Pending), pods it deletes vanish, a new pod group is admitted
 * (Inqueue) as soon as it appears — answering in the order the engine asked, as
 * {@link io.lahar.core.sim.Simulation} does. Script steps then change pods as the kubelet would.
 */
final class DriverWorld {

    private record Pod(String task, int index, int version, String phase, Integer exitCode) {
    }

    private final String job;
    private final TestInputTopic<String, PodEvent> podEvents;
    private final TestInputTopic<String, SchedulerDecision> decisions;
    private final TestOutputTopic<String, PodIntent> intents;
    private final TestOutputTopic<String, PodGroup> podGroups;
    private final Map<String, Pod> pods = new TreeMap<>();
    private boolean podGroupExists;
    long time;

    DriverWorld(String job, long time, TestInputTopic<String, PodEvent> podEvents,
                TestInputTopic<String, SchedulerDecision> decisions, TestOutputTopic<String, PodIntent> intents,
                TestOutputTopic<String, PodGroup> podGroups) {
        this.job = job;
        this.time = time;
        this.podEvents = podEvents;
        this.decisions = decisions;
        this.intents = intents;
        this.podGroups = podGroups;
    }

    private String key() {
        return "default/" + job;
    }

    /** Answers everything the engine asked for, and what it asks in turn, until it asks nothing. */
    void settle() {
        for (int round = 0; round < 1000; round++) {
            boolean acted = false;
            for (KeyValue<String, PodGroup> g : podGroups.readKeyValuesToList()) {
                if (!g.key.equals(key())) {
                    continue;
                }
                if (g.value == null) {
                    podGroupExists = false;
                } else if (!podGroupExists) {
                    podGroupExists = true;
                    decisions.pipeInput(key(), LifecycleScript.podGroupPhase(job, g.value.getName(), "Inqueue", time));
                    acted = true;
                }
            }
            for (KeyValue<String, PodIntent> i : intents.readKeyValuesToList()) {
                if (!i.key.equals(key())) {
                    continue;
                }
                switch (i.value.getIntent()) {
                    case CreatePod c -> {
                        pods.put(c.getPod(), new Pod(c.getTask(), c.getIndex(), c.getJobVersion(), "Pending", null));
                        send(c.getPod(), false);
                        acted = true;
                    }
                    case DeletePod d -> {
                        if (pods.containsKey(d.getPod())) {
                            send(d.getPod(), true);
                            pods.remove(d.getPod());
                            acted = true;
                        }
                    }
                    default -> {
                    }
                }
            }
            if (!acted) {
                return;
            }
        }
        throw new AssertionError("the topology and the world did not settle");
    }

    /** One script step of kind pod, then the world's answers. */
    void run(ScriptStep step) {
        if (!(step instanceof ScriptStep.PodStep p)) {
            throw new IllegalArgumentException("only pod steps are played here: " + step);
        }
        time += 1_000;
        String name = job + "-" + p.task() + "-" + p.index();
        Pod pod = pods.get(name);
        if (pod == null) {
            throw new AssertionError("pod " + name + " does not exist in the world at line " + p.line());
        }
        pods.put(name, new Pod(pod.task(), pod.index(), pod.version(), p.phase().name(), p.exitCode()));
        send(name, false);
        settle();
    }

    private void send(String name, boolean deleted) {
        Pod p = pods.get(name);
        podEvents.pipeInput(key(), LifecycleScript.podEvent(job, p.task(), p.index(), p.version(), p.phase(),
                p.exitCode(), deleted, time));
    }
}
