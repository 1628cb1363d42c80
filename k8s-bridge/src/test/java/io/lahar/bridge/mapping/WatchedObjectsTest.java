package io.lahar.bridge.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.introspect.AnnotatedClass;
import com.fasterxml.jackson.databind.introspect.AnnotationIntrospectorPair;
import com.fasterxml.jackson.databind.introspect.NopAnnotationIntrospector;
import com.fasterxml.jackson.databind.jsontype.TypeResolverBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.runtime.RawExtension;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WatchedObjectsTest {

    private static final KubernetesSerialization PLAIN = new KubernetesSerialization();

    private static final String POD_FIELDS = """
            "metadata":{"name":"j-w-0","namespace":"default","uid":"0b3c","resourceVersion":"17",
            "labels":{"app.kubernetes.io/managed-by":"lahar"},"deletionTimestamp":"2026-12-05T07:00:03Z"},
            "spec":{"schedulerName":"volcano","nodeName":"n1","futureField":{"a":[1,2.5,null]},
            "containers":[{"name":"main","image":"busybox","ports":[{"containerPort":8080}],
            "resources":{"requests":{"cpu":"500m"}}}]},
            "status":{"phase":"Running","conditions":[{"type":"PodScheduled","status":"True",
            "lastTransitionTime":"2026-12-05T07:00:01Z"}],"containerStatuses":[{"name":"main","ready":true,
            "restartCount":2,"state":{"terminated":{"exitCode":137,"reason":"OOMKilled"}}}]}""";

    /** What the API server sends, in the orders it might, and what fabric8 reads otherwise than a typed object. */
    private static final Map<String, Class<?>> EVENTS = Map.ofEntries(
            Map.entry(
                    "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\"," + POD_FIELDS + "}}",
                    Pod.class),
            Map.entry(
                    "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\"," + POD_FIELDS + ",\"kind\":\"Pod\"}}",
                    Pod.class),
            Map.entry(
                    "{\"object\":{" + POD_FIELDS + ",\"kind\":\"Pod\",\"apiVersion\":\"v1\"},\"type\":\"DELETED\"}",
                    Pod.class),
            // No apiVersion: raw, whatever the kind.
            Map.entry("{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\"," + POD_FIELDS + "}}", RawExtension.class),
            Map.entry(
                    "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":"
                            + "{\"name\":\"n1\"},\"status\":{\"allocatable\":{\"cpu\":\"40\"}}}}",
                    Node.class),
            Map.entry(
                    "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"batch.volcano.sh/v1alpha1\",\"kind\":\"Job\","
                            + "\"metadata\":{\"name\":\"j\"},\"spec\":{\"minAvailable\":2,\"tasks\":[{\"replicas\":2}]}}}",
                    GenericKubernetesResource.class),
            Map.entry(
                    "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":"
                            + "\"Failure\",\"message\":\"too old resource version\",\"reason\":\"Expired\",\"code\":410}}",
                    Status.class),
            Map.entry(
                    "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":"
                            + "{\"resourceVersion\":\"12\"}}}",
                    Pod.class),
            Map.entry(
                    "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"x\"},\"apiVersion\":\"v1\"}}",
                    RawExtension.class),
            Map.entry(
                    "{\"type\":\"ADDED\",\"object\":{\"kind\":5,\"apiVersion\":\"v1\",\"a\":{\"b\":1}}}",
                    RawExtension.class),
            Map.entry("{\"type\":\"ADDED\",\"object\":{}}", RawExtension.class),
            Map.entry("{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\"}}", Pod.class));

    @Test
    void watchEventsReadInOnePassAreThoseFabric8Reads() {
        // Twice: the second time with each class's deserializer found the first.
        for (int i = 0; i < 2; i++) {
            readsAsFabric8();
        }
    }

    private static void readsAsFabric8() {
        EVENTS.forEach((json, type) -> {
            WatchEvent plain = PLAIN.unmarshal(json, WatchEvent.class);
            WatchEvent onePass = KubernetesJson.SERIALIZATION.unmarshal(json, WatchEvent.class);
            assertThat(onePass.getObject()).as(json).isInstanceOf(type);
            assertThat(onePass).as(json).isEqualTo(plain);
            assertThat(KubernetesJson.SERIALIZATION.asJson(onePass)).as(json).isEqualTo(PLAIN.asJson(plain));
        });
        WatchEvent none =
                KubernetesJson.SERIALIZATION.unmarshal("{\"type\":\"ADDED\",\"object\":null}", WatchEvent.class);
        assertThat(none.getObject()).isNull();
    }

    /** Jackson's root lookup introspects the class (is it polymorphic?) each time: done once a class. */
    @Test
    void aClassIsLookedUpOnceNotForEveryEvent() {
        ObjectMapper mapper = new ObjectMapper();
        KubernetesSerialization serialization = new KubernetesSerialization(mapper, true);
        KubernetesJson.fast(mapper);
        AtomicInteger podLookups = new AtomicInteger();
        mapper.setAnnotationIntrospector(AnnotationIntrospectorPair.pair(
                mapper.getDeserializationConfig().getAnnotationIntrospector(), new NopAnnotationIntrospector() {
                    @Override
                    public TypeResolverBuilder<?> findTypeResolver(
                            MapperConfig<?> config, AnnotatedClass ac, JavaType baseType) {
                        if (baseType.getRawClass() == Pod.class) {
                            podLookups.incrementAndGet();
                        }
                        return null;
                    }
                }));
        String first = "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\"," + POD_FIELDS + "}}";
        String later = "{\"type\":\"ADDED\",\"object\":{" + POD_FIELDS + ",\"kind\":\"Pod\",\"apiVersion\":\"v1\"}}";
        serialization.unmarshal(first, WatchEvent.class);
        int once = podLookups.get();
        for (int i = 0; i < 5; i++) {
            assertThat(serialization.unmarshal(i % 2 == 0 ? first : later, WatchEvent.class))
                    .isEqualTo(PLAIN.unmarshal(first, WatchEvent.class));
        }
        assertThat(once).isPositive();
        assertThat(podLookups.get()).isEqualTo(once);
    }

    @Test
    void aKindRegisteredWithTheClientsSerializationIsReadAsItsClass() {
        ObjectMapper mapper = new ObjectMapper();
        KubernetesSerialization serialization = new KubernetesSerialization(mapper, true);
        KubernetesJson.fast(mapper);
        serialization.registerKubernetesResource("example.com/v1", "Widget", Pod.class);
        WatchEvent event = serialization.unmarshal(
                "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"}}}",
                WatchEvent.class);
        assertThat(event.getObject()).isInstanceOf(Pod.class);
    }

    /** As the service configures its client's mapper: fabric8 first, then {@link KubernetesJson#fast}. */
    @Test
    void theClientsMapperReadsWatchedObjectsInOnePass() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        new KubernetesSerialization(mapper, true);
        KubernetesJson.fast(mapper);
        DeserializationContext context = ((DefaultDeserializationContext) mapper.getDeserializationContext())
                .createInstance(mapper.getDeserializationConfig(), null, null);
        var deserializer =
                (BeanDeserializerBase) context.findRootValueDeserializer(mapper.constructType(WatchEvent.class));
        assertThat(deserializer.findProperty("object").getValueDeserializer()).isInstanceOf(WatchedObjects.class);
        assertThat(List.of(deserializer.findProperty("type").getName())).containsExactly("type");
    }
}
