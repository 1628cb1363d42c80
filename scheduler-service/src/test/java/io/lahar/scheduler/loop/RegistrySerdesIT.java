package io.lahar.scheduler.loop;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.scheduler.Records;
import io.lahar.schema.Bind;
import io.lahar.schema.Node;
import io.lahar.schema.PodIntent;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.serde.CachingAvroDeserializer;
import io.lahar.schema.serde.CachingAvroSerializer;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.schema.serde.SpecificAvroDeserializer;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

/**
 * Against a real registry: RegistrySerdes' caching serdes give the very records and bytes the
 * registry's own serde (plus {@link SpecificAvroDeserializer}, the path before them) gives.
 */
@WithLaharInfra
class RegistrySerdesIT {

    private final String run = UUID.randomUUID().toString().substring(0, 8);

    @Test
    void decodesEveryRecordOfASchemaIdAsTheRegistrySerdeDoes(LaharInfra infra) {
        RegistrySerdes serdes = new RegistrySerdes(infra.registryUrl());
        String topic = "caching-it-" + run;
        Serializer<PodIntent> ser = serdes.value(PodIntent.class).serializer();
        CachingAvroDeserializer<PodIntent> fast = new CachingAvroDeserializer<>(PodIntent.class, serdes);
        var slow = new SpecificAvroDeserializer<>(
                PodIntent.class, serdes.genericSerde().deserializer());
        for (int i = 0; i < 3; i++) {
            PodIntent intent = Records.intent(
                    "ns",
                    "job-" + i,
                    Records.createPod("job-" + i, "worker", i, "volcano", i + "")
                            .setNodeSelector(Map.of("zone", "z" + i))
                            .build());
            byte[] bytes = ser.serialize(topic, intent);
            assertThat(fast.deserialize(topic, bytes))
                    .isEqualTo(slow.deserialize(topic, bytes))
                    .isEqualTo(intent);
        }
        assertThat(fast.deserialize(topic, null)).isNull();
    }

    @Test
    void aRecordOfAnOlderSchemaReadsWithTheAddedFieldsDefaults(LaharInfra infra) {
        RegistrySerdes serdes = new RegistrySerdes(infra.registryUrl());
        String topic = "caching-old-" + run;
        // Node as an older producer wrote it: without the fields added since (ready, time default).
        Schema older = new Schema.Parser().parse("""
                {"type": "record", "name": "Node", "namespace": "io.lahar.schema", "fields": [
                  {"name": "name", "type": "string"},
                  {"name": "allocatable", "type": {"type": "map", "values": "string"}, "default": {}},
                  {"name": "time", "type": {"type": "long", "logicalType": "timestamp-millis"}}]}""");
        GenericRecord record = new GenericData.Record(older);
        record.put("name", "n1");
        record.put("allocatable", Map.of("cpu", "4"));
        record.put("time", Records.T0.toEpochMilli());
        byte[] bytes = serdes.genericSerde().serializer().serialize(topic, record);

        CachingAvroDeserializer<Node> fast = new CachingAvroDeserializer<>(Node.class, serdes);
        Node first = fast.deserialize(topic, bytes);
        Node again = fast.deserialize(topic, bytes); // the cached reader
        assertThat(first)
                .isEqualTo(again)
                .isEqualTo(serdes.value(Node.class).deserializer().deserialize(topic, bytes))
                .isEqualTo(new SpecificAvroDeserializer<>(
                                Node.class, serdes.genericSerde().deserializer())
                        .deserialize(topic, bytes));
        assertThat(first.getName()).isEqualTo("n1");
        assertThat(first.getReady()).as("an added field takes its default").isTrue();
        assertThat(first.getTaints()).isEmpty();
        assertThat(first.getTime()).isEqualTo(Records.T0);
    }

    @Test
    void theCachingSerializerWritesTheRegistrySerdesBytes(LaharInfra infra) {
        RegistrySerdes serdes = new RegistrySerdes(infra.registryUrl());
        String topic = "caching-ser-" + run;
        CachingAvroSerializer<SchedulerDecision> fast = new CachingAvroSerializer<>(SchedulerDecision.class, serdes);
        Serializer<Object> slow = serdes.genericSerde().serializer();
        var reader = new SpecificAvroDeserializer<>(
                SchedulerDecision.class, serdes.genericSerde().deserializer());
        for (int i = 0; i < 3; i++) {
            SchedulerDecision d = SchedulerDecision.newBuilder()
                    .setNamespace("ns")
                    .setJob("j" + i)
                    .setPodGroup("j-pg")
                    .setEpoch(i)
                    .setSession(i == 1 ? null : "s" + i)
                    .setTime(Records.T0.plusSeconds(i))
                    .setDecision(Bind.newBuilder()
                            .setPod("j-w-" + i)
                            .setNode("n" + i)
                            .setAction("allocate")
                            .build())
                    .build();
            byte[] bytes = fast.serialize(topic, d);
            assertThat(bytes).as("record %d", i).isEqualTo(slow.serialize(topic, d));
            assertThat(reader.deserialize(topic, bytes)).isEqualTo(d);
        }
        assertThat(fast.serialize(topic, null)).isNull();
    }

    @Test
    void decodesUnionMembersOfTheDecisionsTopic(LaharInfra infra) {
        RegistrySerdes serdes = new RegistrySerdes(infra.registryUrl());
        String topic = "caching-dec-" + run;
        SchedulerDecision d = SchedulerDecision.newBuilder()
                .setNamespace("ns")
                .setJob("j")
                .setPodGroup("j-pg")
                .setEpoch(3)
                .setSession("3-1")
                .setTime(Records.T0)
                .setDecision(Bind.newBuilder()
                        .setPod("j-w-0")
                        .setNode("n1")
                        .setAction("allocate")
                        .setJobVersion(0)
                        .build())
                .build();
        byte[] bytes = serdes.value(SchedulerDecision.class).serializer().serialize(topic, d);
        CachingAvroDeserializer<SchedulerDecision> fast =
                new CachingAvroDeserializer<>(SchedulerDecision.class, serdes);
        assertThat(List.of(fast.deserialize(topic, bytes), fast.deserialize(topic, bytes)))
                .containsOnly(d);
    }
}
