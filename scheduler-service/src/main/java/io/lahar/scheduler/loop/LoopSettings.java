package io.lahar.scheduler.loop;

import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.scheduler.cache.NodeSelector;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.serde.RegistrySerdes;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * What one scheduling loop needs to run.
 *
 * @param kafka                  how its clients reach Kafka (the service's kafka. settings)
 * @param registryUrl            the schema registry (Apicurio v3 API)
 * @param registryCredentials    the registry's, or null for an open registry
 * @param transactionalId        fixed per deployment: a second instance with the same id fences the first
 * @param groupId                the consumer group its input offsets are committed to (in its transactions)
 * @param period                 the longest time between two sessions (Volcano: 1 s)
 * @param conf                   the scheduler configuration (actions and plugin tiers)
 * @param maxUnconfirmedBindings sessions pause while this many bindings wait for a pod event
 * @param schedulerNames         the pods' schedulerName values this scheduler places
 * @param transactionTimeout     the producer's transaction timeout
 * @param nodeSelector           the nodes this scheduler may use (Volcano's --node-selector); all by default
 */
public record LoopSettings(
        KafkaClients kafka,
        String registryUrl,
        RegistrySerdes.Credentials registryCredentials,
        String transactionalId,
        String groupId,
        Duration period,
        SchedulerConf conf,
        int maxUnconfirmedBindings,
        Set<String> schedulerNames,
        Duration transactionTimeout,
        NodeSelector nodeSelector) {
    public LoopSettings {
        Objects.requireNonNull(kafka, "kafka");
        Objects.requireNonNull(registryUrl, "registryUrl");
        Objects.requireNonNull(transactionalId, "transactionalId");
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(conf, "conf");
        if (period == null || period.isNegative() || period.isZero())
            throw new IllegalArgumentException("period must be positive");
        if (maxUnconfirmedBindings < 1) throw new IllegalArgumentException("maxUnconfirmedBindings must be at least 1");
        schedulerNames = Set.copyOf(schedulerNames);
        transactionTimeout = transactionTimeout == null ? Duration.ofSeconds(30) : transactionTimeout;
        nodeSelector = nodeSelector == null ? NodeSelector.ALL : nodeSelector;
    }

    /** Settings for a plaintext cluster, an open registry and a scheduler that may use every node (tests, harnesses). */
    public LoopSettings(
            String bootstrapServers,
            String registryUrl,
            String transactionalId,
            String groupId,
            Duration period,
            SchedulerConf conf,
            int maxUnconfirmedBindings,
            Set<String> schedulerNames,
            Duration transactionTimeout) {
        this(
                KafkaClients.plaintext(bootstrapServers),
                registryUrl,
                null,
                transactionalId,
                groupId,
                period,
                conf,
                maxUnconfirmedBindings,
                schedulerNames,
                transactionTimeout,
                NodeSelector.ALL);
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }
}
