package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.CustomResourceDefinitionProcessor;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The store's own reading of request paths and objects gives the keys fabric8's extractor gives. */
class ResourcePathTest {

    private final KubernetesAttributesExtractor fabric8 = new KubernetesAttributesExtractor();

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/api/v1/pods",
                "/api/v1/pods?watch=true&resourceVersion=12&allowWatchBookmarks=true",
                "/api/v1/namespaces/default/pods",
                "/api/v1/namespaces/default/pods/p-1",
                "/api/v1/namespaces/default/pods/p-1/status",
                "/api/v1/namespaces/default/pods/p-1/scale",
                "/api/v1/namespaces/default/pods/status",
                "/api/v1/namespaces/default/status",
                "/api/v1/namespaces/default/pods?watch=true",
                "/api/v1/namespaces/default/pods/p.1?dryRun=All",
                "/api/v1/namespaces",
                "/api/v1/namespaces/default",
                "/api/v1/namespaces/namespaces",
                "/api/v1/namespaces/namespaces/namespaces",
                "/api/v1/namespaces/default/finalize",
                "/api/v1/namespaces/default/bindings",
                "/api/v1/nodes",
                "/api/v1/nodes/node-0",
                "/api/v1/nodes/node-0/status",
                "/apis/batch.volcano.sh/v1alpha1/namespaces/default/jobs/j1",
                "/apis/batch.volcano.sh/v1alpha1/namespaces/default/jobs/j1/status",
                "/apis/batch.volcano.sh/v1alpha1/jobs",
                "/apis/scheduling.volcano.sh/v1beta1/queues/default",
                "/apis/scheduling.volcano.sh/v1beta1/queues/default/status",
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/jobs.batch.volcano.sh",
                "/apis/scheduling.k8s.io/v1/priorityclasses/high",
                "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node_0",
                "/apis/apps/v1/namespaces/a/deployments/d/scale",
            })
    void readsTheKeysFabric8Reads(String path) {
        ResourcePath parsed = ResourcePath.parse(path);

        assertThat(parsed).as(path).isNotNull();
        assertThat(parsed.attributes()).as(path).isEqualTo(fabric8.fromPath(path));
        Map<String, String> values = fabric8.fromKubernetesPath(path);
        assertThat(parsed.group()).isEqualTo(values.get(KubernetesAttributesExtractor.API));
        assertThat(parsed.version()).isEqualTo(values.get(KubernetesAttributesExtractor.VERSION));
        assertThat(parsed.plural()).isEqualTo(values.get(KubernetesAttributesExtractor.PLURAL));
        assertThat(parsed.namespace()).isEqualTo(values.get(KubernetesAttributesExtractor.NAMESPACE));
        assertThat(parsed.name()).isEqualTo(values.get(KubernetesAttributesExtractor.NAME));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/api/v1/namespaces/default/pods?labelSelector=app%3Dx",
                "/api/v1/namespaces/default/pods?labelSelector=app=x,tier!=db",
                "/api/v1/pods?fieldSelector=spec.nodeName=node-0",
                "/api/v1/pods?fieldSelector=metadata.name%3Dp",
                "/api/v1/namespaces/default/pods/p/binding",
                "/api/v1/pods/",
                "/api/v1",
                "/api",
                "/apis/batch.volcano.sh",
                "/apis/batch.volcano.sh/v1alpha1",
                "/apis/batch.volcano.sh/v1alpha1/",
                "/api/v1.1/pods",
                "/api//pods",
                "/api/v1/a/b/c/d",
                "/api/v1/namespaces/default/pods/p/status/x",
                "/api/v1/namespaces/default/pods/p/statusx",
                "/api/v1/namespaces/default/pods/p%2Fq",
                "/api/v1/clusterroles/system:admin",
                "/api/v1/namespaces/./pods",
                "/oapi/v1/projects",
                "/version",
                "/healthz?verbose",
            })
    void leavesToFabric8WhatItDoesNotRead(String path) {
        assertThat(ResourcePath.parse(path)).as(path).isNull();
    }

    /** Every path of plain segments it reads, drawn at random, is read as fabric8 reads it. */
    @Test
    void agreesWithFabric8OnRandomPaths() {
        String[] segments = {
            "v1", "v1beta1", "namespaces", "default", "ns-1", "pods", "p.1", "status", "scale", "binding", "x_y", "."
        };
        Random random = new Random(56);
        int read = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder path = new StringBuilder(random.nextBoolean() ? "/api" : "/apis/batch.volcano.sh");
            int count = 1 + random.nextInt(7);
            for (int s = 0; s < count; s++) {
                path.append('/').append(segments[random.nextInt(segments.length)]);
            }
            if (random.nextInt(4) == 0) {
                path.append("?watch=true");
            }
            ResourcePath parsed = ResourcePath.parse(path.toString());
            if (parsed != null) {
                read++;
                assertThat(parsed.attributes()).as(path.toString()).isEqualTo(fabric8.fromPath(path.toString()));
            }
        }
        assertThat(read).isGreaterThan(3_000);
    }

    @Test
    void keysAnObjectAsFabric8KeysIt() {
        IndexedCrudDispatcher store =
                new IndexedCrudDispatcher(ApiDiscovery.volcanoCluster().customResourceContexts());
        CustomResourceDefinitionProcessor definitions = new CustomResourceDefinitionProcessor();
        ApiDiscovery.volcanoCluster().customResourceContexts().forEach(definitions::addCrdContext);
        fabric8.setCustomResourceDefinitionProcessor(definitions);
        Map<String, String> objects = new HashMap<>();
        objects.put(
                "/api/v1/namespaces/default/pods",
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\","
                        + "\"labels\":{\"app\":\"x\",\"lahar.io/job\":\"j\"}},\"spec\":{}}");
        objects.put(
                "/api/v1/namespaces/default/configmaps",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\",\"labels\":{}}}");
        objects.put("/api/v1/nodes", "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-0\"}}");
        objects.put(
                "/apis/batch.volcano.sh/v1alpha1/namespaces/default/jobs",
                "{\"apiVersion\":\"batch.volcano.sh/v1alpha1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"j\","
                        + "\"namespace\":\"default\",\"labels\":{\"a\":\"1\"}}}");
        objects.put(
                "/apis/scheduling.volcano.sh/v1beta1/queues",
                "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"Queue\",\"metadata\":{\"name\":\"q\"}}");
        objects.put(
                "/apis/example.com/v1/namespaces/default/widgets",
                "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"}}");
        List<String> checked = new ArrayList<>();
        objects.forEach((path, json) -> {
            JsonNode tree = CrudStore.parse(json);
            AttributeSet pathKey = store.getKey(path);
            AttributeSet theirs = fabric8.extract(Serialization.unmarshal(json, GenericKubernetesResource.class));
            if (!theirs.containsKey(KubernetesAttributesExtractor.PLURAL)) {
                theirs = AttributeSet.merge(pathKey, theirs);
            }
            assertThat(ObjectWrite.key(tree, definitions, pathKey)).as(path).isEqualTo(theirs);
            checked.add(path);
        });
        assertThat(checked).hasSize(6);
    }
}
