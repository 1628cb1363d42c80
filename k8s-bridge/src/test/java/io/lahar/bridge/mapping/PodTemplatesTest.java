package io.lahar.bridge.mapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.TestIntents;
import io.lahar.bridge.TestPods;
import io.lahar.schema.CreatePod;
import io.lahar.schema.PodIntent;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PodTemplatesTest {

    private static final KubernetesSerialization PLAIN = new KubernetesSerialization();

    /** Templates as the engine writes them, and what a PodTemplateSpec may hold besides. */
    private static final List<String> TEMPLATES = List.of(
            TestIntents.template("sleep 5"),
            """
            {"metadata":{"name":"tf-ps-0","labels":{"volcano.sh/task-index":"0"},"annotations":{"a":"b"},
             "ownerReferences":[{"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","name":"tf","uid":"u"}]},
             "spec":{"nodeName":"sneaky","schedulerName":"other","futureField":{"x":[1,{"y":null}]},
              "containers":[{"name":"c","image":"i","ports":[{"containerPort":80}],
               "resources":{"limits":{"nvidia.com/gpu":"1"}},"readinessProbe":{"periodSeconds":5}}],
              "hostname":"tf-ps-0","subdomain":"tf","priority":7,
              "tolerations":[{"key":"k","operator":"Exists","tolerationSeconds":30}]},
             "extra":{"ignored":true}}""",
            "{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}",
            "{\"metadata\":null,\"spec\":null}",
            "{\"metadata\":{\"labels\":{\"app\":\"x\"}}}",
            "{}",
            "");

    @Test
    void thePodIsTheOneTheTemplateParsedForItAloneWouldMake() {
        PodTemplates templates = new PodTemplates();
        for (String template : TEMPLATES) {
            for (String scheduler : new String[] {"volcano", "", "other"}) {
                PodIntent intent = TestIntents.create("ns1", "tf", "ps", 0, 2, template);
                CreatePod create = (CreatePod) intent.getIntent();
                create.setSchedulerName(scheduler);
                Optional<OwnerReference> owner = Optional.of(Pods.jobOwner("tf", "cr-uid"));
                // Twice: the second pod is made from the kept spec.
                for (int i = 0; i < 2; i++) {
                    assertThat(PLAIN.asJson(Pods.pod(intent, create, owner, templates)))
                            .as(template + " for " + scheduler)
                            .isEqualTo(PLAIN.asJson(TestPods.parsedAlone(intent, create, owner)));
                }
                assertThat(PLAIN.asJson(Pods.pod(intent, create, Optional.empty(), templates)))
                        .isEqualTo(PLAIN.asJson(TestPods.parsedAlone(intent, create, Optional.empty())));
            }
        }
    }

    @Test
    void thePodsOfATaskShareOneSpecWhichMakingPodsLeavesAsItWas() {
        PodTemplates templates = new PodTemplates();
        String spec = "\"spec\":{\"nodeName\":\"n\",\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}";
        PodIntent firstIntent = intent("{\"metadata\":{\"name\":\"j-w-0\"}," + spec + "}", "volcano");
        Pod first = Pods.pod(firstIntent, (CreatePod) firstIntent.getIntent(), Optional.empty(), templates);
        PodIntent second = intent("{\"metadata\":{\"name\":\"j-w-1\"}," + spec + "}", "volcano");
        Pod secondPod = Pods.pod(second, (CreatePod) second.getIntent(), Optional.empty(), templates);
        assertThat(secondPod.getSpec()).isSameAs(first.getSpec());
        assertThat(templates.size()).isOne();

        PodIntent otherScheduler = intent("{\"metadata\":{\"name\":\"j-w-2\"}," + spec + "}", "other");
        Pod third = Pods.pod(otherScheduler, (CreatePod) otherScheduler.getIntent(), Optional.empty(), templates);
        assertThat(third.getSpec().getSchedulerName()).isEqualTo("other");
        assertThat(first.getSpec().getSchedulerName()).isEqualTo("volcano");
        assertThat(first.getSpec().getNodeName()).isNull();
        assertThat(templates.size()).isEqualTo(2);
    }

    @Test
    void specsKeptAreBoundedInNumberAndSize() {
        PodTemplates templates = new PodTemplates(2, 100);
        for (int i = 0; i < 5; i++) {
            templates.read("{\"spec\":{\"hostname\":\"h" + i + "\"}}", "volcano");
        }
        assertThat(templates.size()).isEqualTo(2);

        PodTemplates small = new PodTemplates(2, 100);
        String large = "{\"spec\":{\"hostname\":\"" + "h".repeat(200) + "\"}}";
        assertThat(small.read(large, "volcano").spec().getHostname()).hasSize(200);
        assertThat(small.size()).isZero();
    }

    @Test
    void aTemplateThatIsNotAPodTemplateSpecIsRejectedWithItsField() {
        PodTemplates templates = new PodTemplates();
        for (String bad : List.of(
                "{not json", "[1]", "{\"spec\":5}", "{\"spec\":{\"containers\":7}}", "{} {}", "{\"metadata\":[]}")) {
            assertThatThrownBy(() -> templates.read(bad, "volcano"))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("intent.template: not a PodTemplateSpec");
        }
        assertThat(templates.size()).isZero();
    }

    private static PodIntent intent(String template, String scheduler) {
        PodIntent intent = TestIntents.create("ns1", "j", "w", 0, 1, template);
        ((CreatePod) intent.getIntent()).setSchedulerName(scheduler);
        return intent;
    }
}
