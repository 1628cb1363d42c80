package io.lahar.bridge.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.deser.impl.MethodProperty;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.jackson.SettableBeanPropertyDelegating;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class KubernetesJsonTest {

    /**
     * A pod with what fabric8 models in unusual ways: quantities, int-or-string ports, maps, lists
     * of objects, a field no model knows (kept in additionalProperties), times and nulls.
     */
    private static final String POD = """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"job-worker-0","namespace":"default",
            "uid":"0b3c","resourceVersion":"17","labels":{"volcano.sh/job-name":"job"},
            "annotations":{"scheduling.k8s.io/group-name":"job"},"ownerReferences":[{"apiVersion":
            "batch.volcano.sh/v1alpha1","kind":"Job","name":"job","uid":"9a","controller":true,
            "blockOwnerDeletion":true}],"creationTimestamp":"2026-12-05T07:00:00Z"},
            "spec":{"schedulerName":"volcano","restartPolicy":"Never","futureField":{"a":[1,2]},
            "containers":[{"name":"main","image":"busybox","command":["sleep","1"],"ports":[
            {"containerPort":8080,"name":"http"}],"readinessProbe":{"httpGet":{"path":"/","port":"http"},
            "periodSeconds":5},"resources":{"requests":{"cpu":"500m","memory":"1Gi"},
            "limits":{"nvidia.com/gpu":"1"}},"env":[{"name":"A","valueFrom":{"fieldRef":
            {"fieldPath":"metadata.name"}}}]}],"tolerations":[{"key":"k","operator":"Exists",
            "effect":"NoSchedule","tolerationSeconds":30}],"affinity":{"nodeAffinity":{
            "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":
            [{"key":"zone","operator":"In","values":["a","b"]}]}]}}}},
            "status":{"phase":"Running","hostIP":"10.0.0.1","podIP":"10.1.0.1","conditions":[
            {"type":"PodScheduled","status":"True","lastTransitionTime":"2026-12-05T07:00:01Z"}],
            "containerStatuses":[{"name":"main","ready":true,"restartCount":0,"image":"busybox",
            "imageID":"","state":{"terminated":{"exitCode":0,"reason":"Completed",
            "finishedAt":"2026-12-05T07:00:02Z"}}}]}}
            """;

    private static final KubernetesSerialization PLAIN = new KubernetesSerialization();

    @Test
    void objectsReadAndWrittenWithBlackbirdAreThoseOfPlainFabric8() {
        Pod fast = KubernetesJson.SERIALIZATION.unmarshal(POD, Pod.class);
        Pod plain = PLAIN.unmarshal(POD, Pod.class);
        assertThat(fast).isEqualTo(plain);
        assertThat(fast.getSpec().getAdditionalProperties()).containsKey("futureField");
        assertThat(KubernetesJson.SERIALIZATION.asJson(fast)).isEqualTo(PLAIN.asJson(plain));

        PodTemplateSpec template = new PodTemplateSpec(plain.getMetadata(), plain.getSpec());
        String json = PLAIN.asJson(template);
        assertThat(KubernetesJson.SERIALIZATION.asJson(template)).isEqualTo(json);
        assertThat(KubernetesJson.SERIALIZATION.unmarshal(json, PodTemplateSpec.class))
                .isEqualTo(template);
    }

    @Test
    void blackbirdRegisteredAfterFabric8ReplacesEveryReflectivePropertyOfTheModel() throws Exception {
        assertThat(reflectiveProperties(KubernetesJson.SERIALIZATION, KubernetesJson::fast))
                .isEmpty();
        // The order is what makes it: registered before fabric8's module, Blackbird finds fabric8's
        // wrappers and leaves the reflective setters inside them.
        assertThat(reflectiveProperties(null, KubernetesJson::fast)).isNotEmpty();
    }

    /**
     * The setter-by-reflection properties left in the deserializer of ObjectMeta, when {@code fast}
     * is applied to a fresh mapper after fabric8 configured it ({@code configured} non-null) or
     * before.
     */
    private static List<String> reflectiveProperties(
            KubernetesSerialization configured, UnaryOperator<ObjectMapper> fast) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        if (configured != null) {
            new KubernetesSerialization(mapper, true);
            fast.apply(mapper);
        } else {
            fast.apply(mapper);
            new KubernetesSerialization(mapper, true);
        }
        DeserializationContext context = ((DefaultDeserializationContext) mapper.getDeserializationContext())
                .createInstance(mapper.getDeserializationConfig(), null, null);
        var deserializer =
                (BeanDeserializerBase) context.findRootValueDeserializer(mapper.constructType(ObjectMeta.class));
        List<String> reflective = new ArrayList<>();
        deserializer.properties().forEachRemaining(property -> {
            // fabric8's wrapper (for unknown fields) outermost; what it wraps is the setter's caller:
            // reflection (MethodProperty) or a Blackbird property (itself wrapping the reflective one).
            SettableBeanProperty inner = property;
            while (inner instanceof SettableBeanPropertyDelegating fabric8) {
                inner = fabric8.getDelegate();
            }
            if (inner instanceof MethodProperty) {
                reflective.add(property.getName());
            }
        });
        return reflective;
    }
}
