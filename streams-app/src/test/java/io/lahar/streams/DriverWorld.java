package io.lahar.streams;

import io.lahar.core.sim.ScriptStep;
import io.lahar.schema.CreatePod;
import io.lahar.schema.DeletePod;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.SchedulerDecision;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;

/**
 * The simulator's instant world, played against the topology under TopologyTestDriver: pods the
 * engine asks for exist at once (Pending), pods it deletes vanish, a new pod group is admitted
 * (Inqueue) as soon as it appears — answering in the order the engine asked, as
 * {@link io.lahar.core.sim.Simulation} does. Script steps then change pods as the kubelet would.
 * It serves every job of namespace {@code default} (the JobFlow tests run several at once); the
 * script steps of {@link #run} are about the job it was made for.
 */
public final class DriverWorld {

    /** The key prefix of the jobs it serves. */
    private static final String NAMESPACE = "default/";

    private record Pod(String task, int index, int version, String phase, Integer exitCode) {}

    private final String job;
    private final TestInputTopic<String, PodEvent> podEvents;
    private final TestInputTopic<String, SchedulerDecision> decisions;
    private final TestOutputTopic<String, PodIntent> intents;
    private final TestOutputTopic<String, PodGroup> podGroups;
    /** By job name: its pods by name. */
    private final Map<String, Map<String, Pod>> pods = new TreeMap<>();
    /** The jobs whose pod group exists. */
    private final Set<String> podGroupExists = new HashSet<>();
    /** The world's clock (ms): the time of what it sends; each step moves it a second on. */
    private long time;

    /** @param job the job {@link #run}'s steps are about */
    public DriverWorld(
            String job,
            long time,
            TestInputTopic<String, PodEvent> podEvents,
            TestInputTopic<String, SchedulerDecision> decisions,
            TestOutputTopic<String, PodIntent> intents,
            TestOutputTopic<String, PodGroup> podGroups) {
        this.job = job;
        this.time = time;
        this.podEvents = podEvents;
        this.decisions = decisions;
        this.intents = intents;
        this.podGroups = podGroups;
    }

    /** The time of the world's last answer or step. */
    public long time() {
        return time;
    }

    /** Moves the world's clock to {@code at}, never back. */
    public void advanceTo(long at) {
        time = Math.max(time, at);
    }

    /** The job of a {@code default/<job>} key; null for another namespace's. */
    private static String jobOf(String key) {
        return key.startsWith(NAMESPACE) ? key.substring(NAMESPACE.length()) : null;
    }

    /** Answers everything the engine asked for, and what it asks in turn, until it asks nothing. */
    public void settle() {
        for (int round = 0; round < 1000; round++) {
            boolean acted = false;
            for (KeyValue<String, PodGroup> g : podGroups.readKeyValuesToList()) {
                String name = jobOf(g.key);
                if (name == null) {
                    continue;
                }
                if (g.value == null) {
                    podGroupExists.remove(name);
                } else if (podGroupExists.add(name)) {
                    decisions.pipeInput(g.key, LifecycleScript.podGroupPhase(name, g.value.getName(), "Inqueue", time));
                    acted = true;
                }
            }
            for (KeyValue<String, PodIntent> i : intents.readKeyValuesToList()) {
                String name = jobOf(i.key);
                if (name == null) {
                    continue;
                }
                Map<String, Pod> ofJob = pods.computeIfAbsent(name, n -> new TreeMap<>());
                switch (i.value.getIntent()) {
                    case CreatePod c -> {
                        ofJob.put(c.getPod(), new Pod(c.getTask(), c.getIndex(), c.getJobVersion(), "Pending", null));
                        send(name, c.getPod(), false);
                        acted = true;
                    }
                    case DeletePod d -> {
                        if (ofJob.containsKey(d.getPod())) {
                            send(name, d.getPod(), true);
                            ofJob.remove(d.getPod());
                            acted = true;
                        }
                    }
                    default -> {}
                }
            }
            if (!acted) {
                return;
            }
        }
        throw new AssertionError("the topology and the world did not settle");
    }

    /** One script step of kind pod about this world's job, then the world's answers. */
    public void run(ScriptStep step) {
        if (!(step instanceof ScriptStep.PodStep p)) {
            throw new IllegalArgumentException("only pod steps are played here: " + step);
        }
        time += 1_000;
        String name = job + "-" + p.task() + "-" + p.index();
        Pod pod = pods.getOrDefault(job, Map.of()).get(name);
        if (pod == null) {
            throw new AssertionError("pod " + name + " does not exist in the world at line " + p.line());
        }
        pods.get(job)
                .put(
                        name,
                        new Pod(
                                pod.task(),
                                pod.index(),
                                pod.version(),
                                p.phase().name(),
                                p.exitCode()));
        send(job, name, false);
        settle();
    }

    /**
     * A second later every pod of {@code job} is in {@code phase} (a container's exit code 0 when
     * Succeeded, 1 when Failed), then the world's answers.
     */
    public void allPods(String job, String phase) {
        Map<String, Pod> ofJob = pods.getOrDefault(job, Map.of());
        if (ofJob.isEmpty()) {
            throw new AssertionError("job " + job + " has no pods in the world");
        }
        time += 1_000;
        Integer exitCode = switch (phase) {
            case "Succeeded" -> 0;
            case "Failed" -> 1;
            default -> null;
        };
        for (Map.Entry<String, Pod> e : ofJob.entrySet()) {
            Pod pod = e.getValue();
            e.setValue(new Pod(pod.task(), pod.index(), pod.version(), phase, exitCode));
            send(job, e.getKey(), false);
        }
        settle();
    }

    private void send(String job, String name, boolean deleted) {
        Pod p = pods.get(job).get(name);
        podEvents.pipeInput(
                NAMESPACE + job,
                LifecycleScript.podEvent(
                        job, p.task(), p.index(), p.version(), p.phase(), p.exitCode(), deleted, time));
    }
}
