package io.lahar.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConfigEntry.ConfigSource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

/** What the topic bootstrap sets on a topic that exists: the contract's codec, unless the topic has one of its own. */
class TopicBootstrapTest {

    @Test
    void aTopicOnTheBrokersDefaultsGetsTheContractsCodecAndLevel() {
        Config config = config(
                entry(TopicConfig.COMPRESSION_TYPE_CONFIG, "producer", ConfigSource.DEFAULT_CONFIG),
                entry(TopicConfig.COMPRESSION_GZIP_LEVEL_CONFIG, "-1", ConfigSource.DEFAULT_CONFIG));

        assertThat(sets(TopicBootstrap.changes(Topics.JOB_STATUS, config)))
                .containsExactly(Map.entry("compression.type", "gzip"), Map.entry("compression.gzip.level", "1"));
    }

    @Test
    void aCodecSetOnTheTopicItselfIsLeftAsItIs() {
        Config config = config(
                entry(TopicConfig.COMPRESSION_TYPE_CONFIG, "lz4", ConfigSource.DYNAMIC_TOPIC_CONFIG),
                entry(TopicConfig.COMPRESSION_GZIP_LEVEL_CONFIG, "1", ConfigSource.DYNAMIC_TOPIC_CONFIG));

        assertThat(TopicBootstrap.changes(Topics.JOB_STATUS, config)).isEmpty();
    }

    @Test
    void aTopicWithTheContractsSettingsNeedsNothing() {
        Config config = config(
                entry(TopicConfig.COMPRESSION_TYPE_CONFIG, "gzip", ConfigSource.DYNAMIC_TOPIC_CONFIG),
                entry(TopicConfig.COMPRESSION_GZIP_LEVEL_CONFIG, "1", ConfigSource.STATIC_BROKER_CONFIG));

        assertThat(TopicBootstrap.changes(Topics.QUEUES, config)).isEmpty();
    }

    @Test
    void everyTopicOfTheContractIsGzipAtTheFastestLevelBesideItsCleanupPolicy() {
        assertThat(Topics.all())
                .allSatisfy(t -> assertThat(t.configs())
                        .containsExactlyInAnyOrderEntriesOf(Map.of(
                                "cleanup.policy",
                                t.cleanupPolicy(),
                                "compression.type",
                                "gzip",
                                "compression.gzip.level",
                                "1")));
        assertThat(TopicBootstrap.newTopic(Topics.JOB_STATUS).configs()).isEqualTo(Topics.JOB_STATUS.configs());
        assertThat(TopicBootstrap.newTopic(Topics.JOB_STATUS).numPartitions()).isEqualTo(Topics.JOB_PARTITIONS);
    }

    private static List<Map.Entry<String, String>> sets(List<AlterConfigOp> ops) {
        assertThat(ops).allSatisfy(op -> assertThat(op.opType()).isEqualTo(AlterConfigOp.OpType.SET));
        return ops.stream()
                .map(op -> Map.entry(op.configEntry().name(), op.configEntry().value()))
                .toList();
    }

    private static Config config(ConfigEntry... entries) {
        return new Config(List.of(entries));
    }

    private static ConfigEntry entry(String name, String value, ConfigSource source) {
        return new ConfigEntry(name, value, source, false, false, List.of(), ConfigEntry.ConfigType.STRING, null);
    }
}
