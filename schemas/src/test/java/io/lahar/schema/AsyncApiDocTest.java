package io.lahar.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.lahar.schema.Topics.TopicSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/asyncapi.yaml and Topics.java describe the same topics: every topic is a channel with the
 * same address, partitions, cleanup policy, codec, key and value schema (the .avsc file the
 * generated class comes from), and is written and read by someone; and no channel is extra.
 */
class AsyncApiDocTest {

    private static final Path DOCS = AvscFiles.MODULE.resolveSibling("docs");
    private static JsonNode doc;

    @BeforeAll
    static void read() throws IOException {
        doc = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(DOCS.resolve("asyncapi.yaml")));
    }

    @Test
    void isAnAsyncApi3DocumentOfKafkaTopics() {
        assertThat(doc.path("asyncapi").asText()).isEqualTo("3.0.0");
        assertThat(doc.path("servers"))
                .allSatisfy(
                        server -> assertThat(server.path("protocol").asText()).isEqualTo("kafka"));
    }

    @Test
    void everyTopicIsAChannelWithItsPartitionsCleanupPolicyAndCodecAndNoChannelIsExtra() {
        Map<String, JsonNode> channels = channelsByAddress();

        assertThat(channels.keySet())
                .as("channel addresses in docs/asyncapi.yaml")
                .containsExactlyElementsOf(
                        Topics.all().stream().map(TopicSpec::name).toList());
        assertThat(Topics.all()).allSatisfy(t -> {
            JsonNode kafka = channels.get(t.name()).path("bindings").path("kafka");
            assertThat(kafka.path("partitions").asInt())
                    .as(t.name() + " partitions")
                    .isEqualTo(t.partitions());
            JsonNode config = kafka.path("topicConfiguration");
            assertThat(config.path("cleanup.policy"))
                    .as(t.name() + " cleanup.policy")
                    .hasSize(1);
            assertThat(config.path("cleanup.policy").get(0).asText())
                    .as(t.name() + " cleanup.policy")
                    .isEqualTo(t.cleanupPolicy());
            assertThat(config.path("compression.type").asText())
                    .as(t.name() + " compression.type")
                    .isEqualTo(t.configs().get("compression.type"));
            assertThat(config.path("compression.gzip.level").asText())
                    .as(t.name() + " compression.gzip.level")
                    .isEqualTo(t.configs().get("compression.gzip.level"));
        });
    }

    @Test
    void everyChannelCarriesItsTopicsValueSchemaFileAndKey() {
        Map<String, JsonNode> channels = channelsByAddress();
        Map<String, Schema> byFile = AvscFiles.parse(AvscFiles.CURRENT);

        assertThat(Topics.all()).allSatisfy(t -> {
            List<JsonNode> messages = new ArrayList<>();
            channels.get(t.name()).path("messages").forEach(m -> messages.add(resolve(m)));
            assertThat(messages).as(t.name() + " messages").hasSize(1);
            JsonNode message = messages.get(0);
            JsonNode payload = message.path("payload");
            assertThat(payload.path("schemaFormat").asText()).startsWith("application/vnd.apache.avro+json;");
            Path avsc =
                    DOCS.resolve(payload.path("schema").path("$ref").asText()).normalize();
            assertThat(avsc).as(t.name() + " value schema file").exists();
            Schema schema = byFile.get(AvscFiles.CURRENT.relativize(avsc).toString());
            assertThat(schema).as(t.name() + " value schema in " + avsc).isNotNull();
            assertThat(schema.getFullName())
                    .as(t.name() + " value schema in " + avsc)
                    .isEqualTo(t.valueSchema().getFullName());
            JsonNode kafka = message.path("bindings").path("kafka");
            assertThat(kafka.path("key").path("type").asText())
                    .as(t.name() + " key type")
                    .isEqualTo("string");
            assertThat(kafka.path("key").path("description").asText())
                    .as(t.name() + " key")
                    .isEqualTo(t.keyDescription());
            assertThat(kafka.path("schemaIdLocation").asText()).isEqualTo("payload");
            assertThat(kafka.path("schemaIdPayloadEncoding").asText()).isEqualTo("confluent");
        });
    }

    @Test
    void everyChannelIsWrittenAndReadBySomeoneAndEveryOperationNamesAChannel() {
        Map<String, List<String>> actions = new LinkedHashMap<>();
        doc.path("operations").properties().forEach(op -> {
            String ref = op.getValue().path("channel").path("$ref").asText();
            assertThat(ref).as(op.getKey() + " channel").startsWith("#/channels/");
            JsonNode channel = resolve(op.getValue().path("channel"));
            assertThat(channel.isMissingNode())
                    .as(op.getKey() + " names a channel that exists")
                    .isFalse();
            assertThat(op.getValue().path("description").asText())
                    .as(op.getKey() + " says who")
                    .isNotBlank();
            actions.computeIfAbsent(channel.path("address").asText(), a -> new ArrayList<>())
                    .add(op.getValue().path("action").asText());
        });

        assertThat(Topics.all())
                .allSatisfy(t -> assertThat(actions.get(t.name()))
                        .as(t.name() + " operations")
                        .containsExactlyInAnyOrder("send", "receive"));
    }

    private static Map<String, JsonNode> channelsByAddress() {
        Map<String, JsonNode> channels = new LinkedHashMap<>();
        doc.path("channels").forEach(c -> {
            assertThat(channels.put(c.path("address").asText(), c))
                    .as("channels of " + c.path("address"))
                    .isNull();
        });
        return channels;
    }

    /** The object a local {@code $ref} ({@code #/a/b}) points at, or the node itself. */
    private static JsonNode resolve(JsonNode node) {
        String ref = node.path("$ref").asText("");
        if (!ref.startsWith("#/")) {
            return node;
        }
        return doc.at(ref.substring(1));
    }
}
