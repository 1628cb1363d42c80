package io.lahar.scheduler;

import static io.lahar.scheduler.Records.createPod;
import static io.lahar.scheduler.Records.intent;
import static io.lahar.scheduler.Records.podGroup;

import io.lahar.schema.Bind;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * One test's private corner of the shared broker: its nodes carry a taint and a label named after
 * the run, and its pods tolerate the taint and select the label, so no other test's pods land on
 * these nodes and these pods land nowhere else.
 */
public final class Cluster {
    public static final String NAMESPACE = "it";
    public final String run;
    public final String queue;
    private final Wire wire;
    private final String schedulerName;

    public Cluster(Wire wire, String run, String schedulerName) {
        this.wire = wire;
        this.run = run;
        this.schedulerName = schedulerName;
        this.queue = "q-" + run;
    }

    public String node(int i) {
        return "n" + i + "-" + run;
    }

    public String job(int i) {
        return "g" + i + "-" + run;
    }

    public void nodesAndQueue(int nodes, String cpu) {
        wire.send(Topics.QUEUES.name(), queue, Records.queue(queue, 100));
        for (int i = 0; i < nodes; i++) {
            wire.send(
                    Topics.NODES.name(),
                    node(i),
                    Records.node(
                            node(i),
                            cpu,
                            "16Gi",
                            Map.of("lahar.io/run", run),
                            List.of(Records.taint("lahar.io/run", run))));
        }
    }

    /** A gang of {@code pods} pods of {@code cpu} each, all needed (minMember = pods). */
    public void gang(int i, int pods, String cpu, long created) {
        String job = job(i);
        String key = NAMESPACE + "/" + job;
        wire.send(Topics.POD_GROUPS.name(), key, podGroup(NAMESPACE, job, queue, pods, "Inqueue", created));
        for (int p = 0; p < pods; p++) {
            wire.send(
                    Topics.POD_INTENTS.name(),
                    key,
                    intent(
                            NAMESPACE,
                            job,
                            createPod(job, "worker", p, schedulerName, cpu)
                                    .setNodeSelector(Map.of("lahar.io/run", run))
                                    .setTolerations(List.of(Records.tolerate("lahar.io/run", run)))
                                    .build()));
        }
    }

    public boolean mine(SchedulerDecision d) {
        return d.getNamespace().equals(NAMESPACE) && d.getJob().endsWith("-" + run);
    }

    public static List<Bind> binds(List<SchedulerDecision> ds) {
        return ds.stream()
                .filter(d -> d.getDecision() instanceof Bind)
                .map(d -> (Bind) d.getDecision())
                .toList();
    }

    /** The pods bound per job. */
    public static Map<String, Set<String>> boundByJob(List<SchedulerDecision> ds) {
        return ds.stream()
                .filter(d -> d.getDecision() instanceof Bind)
                .collect(Collectors.groupingBy(
                        SchedulerDecision::getJob,
                        TreeMap::new,
                        Collectors.mapping(
                                d -> ((Bind) d.getDecision()).getPod(), Collectors.toCollection(TreeSet::new))));
    }

    /** The last status decided per job. */
    public static Map<String, PodGroupStatus> lastStatus(List<SchedulerDecision> ds) {
        Map<String, PodGroupStatus> out = new TreeMap<>();
        for (SchedulerDecision d : ds) {
            if (d.getDecision() instanceof PodGroupStatus s) out.put(d.getJob(), s);
        }
        return out;
    }
}
