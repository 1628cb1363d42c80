package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.AttributeType;
import io.fabric8.mockwebserver.crud.Key;
import io.fabric8.mockwebserver.crud.Value;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * {@link StoreQuery#matches} answers as fabric8's {@link AttributeSet#matches} (its own lookups
 * against its linear scans), on random keys and queries of every kind fabric8 makes and of every
 * requirement type, with its {@code *} values, empty and missing values, and its exceptions.
 */
class StoreQueryTest {

    private static final String[] VALUES = {"a", "b", "c", "", "*", null};
    private static final String[] LABELS = {"app", "tier", "lahar.io/job", "x"};
    private static final String[] PLURALS = {"pods", "jobs", "nodes"};

    private final KubernetesAttributesExtractor fabric8 = new KubernetesAttributesExtractor();
    private final Random random = new Random(56);

    @Test
    void answersAsFabric8OnRandomKeysAndQueriesOfEveryRequirementType() {
        List<AttributeSet> keys = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            keys.add(randomKey());
        }
        int matched = 0;
        int compared = 0;
        for (int q = 0; q < 3_000; q++) {
            AttributeSet query = randomQuery();
            StoreQuery ours = StoreQuery.of(query);
            for (int k = 0; k < 20; k++) {
                AttributeSet key = keys.get(random.nextInt(keys.size()));
                Object expected = outcome(() -> key.matches(query));
                assertThat(outcome(() -> ours.matches(StoreKey.of(key))))
                        .as("%s matches %s", key, query)
                        .isEqualTo(expected);
                matched += Boolean.TRUE.equals(expected) ? 1 : 0;
                compared++;
            }
        }
        // The random queries must select some keys and refuse others, or the comparison says little.
        assertThat(matched).isBetween(compared / 50, compared - compared / 50);
    }

    @Test
    void aPathsQueryAnswersAsItsKeyDoes() {
        int matched = 0;
        for (int i = 0; i < 5_000; i++) {
            ResourcePath path = new ResourcePath(
                    random.nextBoolean() ? null : pick("batch", "batch.volcano.sh"),
                    pick("v1", "v1alpha1"),
                    pick(PLURALS),
                    random.nextBoolean() ? null : pick("a", "b"),
                    random.nextInt(3) == 0 ? null : pick("p", "q", "*"));
            AttributeSet key = randomKey();
            boolean expected = key.matches(path.attributes());
            assertThat(path.query().matches(StoreKey.of(key)))
                    .as("%s matches %s", key, path)
                    .isEqualTo(expected);
            assertThat(StoreQuery.of(path.attributes()).matches(StoreKey.of(key)))
                    .isEqualTo(expected);
            matched += expected ? 1 : 0;
        }
        assertThat(matched).isPositive();
    }

    @Test
    void readsWhatTheIndexNeedsAsFabric8sKeyHoldsIt() {
        for (int i = 0; i < 2_000; i++) {
            AttributeSet query = random.nextBoolean() ? randomQuery() : randomKey();
            StoreQuery ours = StoreQuery.of(query);
            assertThat(ours.plural()).isEqualTo(required(query, KubernetesAttributesExtractor.PLURAL));
            assertThat(ours.namespace()).isEqualTo(required(query, KubernetesAttributesExtractor.NAMESPACE));
            assertThat(ours.name()).isEqualTo(required(query, KubernetesAttributesExtractor.NAME));
            assertThat(ours.naming()).isEqualTo(query.containsKey(KubernetesAttributesExtractor.NAME));
            assertThat(ours.value(KubernetesAttributesExtractor.NAMESPACE))
                    .isEqualTo(first(query, KubernetesAttributesExtractor.NAMESPACE));
            assertThat(ours.attributes()).isSameAs(query);
        }
        ResourcePath path = new ResourcePath("batch", "v1", "jobs", "a", null);
        assertThat(path.query().attributes()).isEqualTo(path.attributes());
        assertThat(path.query().naming()).isFalse();
        assertThat(path.named("j").query().name()).isEqualTo("j");
        assertThat(path.named("j").query().value(KubernetesAttributesExtractor.NAMESPACE))
                .isEqualTo("a");
    }

    @Test
    void aKeyIsEqualAsItsAttributeSetIsAndEqualKeysHashAlike() {
        for (int i = 0; i < 2_000; i++) {
            AttributeSet a = randomKey();
            AttributeSet b = random.nextBoolean() ? a : randomKey();
            AttributeSet copy = AttributeSet.merge(a);
            StoreKey key = StoreKey.of(a);
            assertThat(key).isEqualTo(StoreKey.of(copy));
            assertThat(key.hashCode()).isEqualTo(StoreKey.of(copy).hashCode());
            assertThat(key.equals(StoreKey.of(b))).isEqualTo(a.equals(b));
            assertThat(key.attributes()).isSameAs(a);
        }
    }

    @Test
    void theKeysOfPodsThatDifferByNameOnlyHashApart() {
        Set<Integer> hashes = new HashSet<>();
        int pods = 20_000;
        for (int i = 0; i < pods; i++) {
            String name = "job-" + i / 100 + "-task-" + i % 100;
            hashes.add(StoreKey.of(new AttributeSet(
                            new Attribute("version", "v1"),
                            new Attribute("plural", "pods"),
                            new Attribute("name", name),
                            new Attribute("metadata.name", name),
                            new Attribute("namespace", "default"),
                            new Attribute("metadata.namespace", "default"),
                            new Attribute("labels:lahar.io/job", "job-" + i / 100)))
                    .hashCode());
        }
        assertThat(hashes.size()).isGreaterThan(pods - pods / 1_000);
    }

    @Test
    void aKeyWithAnAttributeUnderAnotherKeyIsMatchedByFabric8sOwnCode() {
        Map<Key, Attribute> odd = new HashMap<>();
        odd.put(new Key("name"), new Attribute("metadata.name", "p"));
        odd.put(new Key("plural"), new Attribute("plural", "pods"));
        AttributeSet key = new AttributeSet(odd);
        AttributeSet byName = new AttributeSet(new Attribute("metadata.name", "p"));
        AttributeSet named = new AttributeSet(new Attribute("name", "p"));

        assertThat(StoreKey.of(key).regular()).isFalse();
        assertThat(StoreQuery.of(byName).matches(StoreKey.of(key))).isEqualTo(key.matches(byName));
        assertThat(StoreQuery.of(named).matches(StoreKey.of(key))).isEqualTo(key.matches(named));
        assertThat(key.matches(byName)).isNotEqualTo(key.matches(named));
    }

    @Test
    void labelAndFieldSelectorsFabric8ReadsFromAPath() {
        int matched = 0;
        for (int i = 0; i < 3_000; i++) {
            List<String> labels = new ArrayList<>();
            for (int n = random.nextInt(4); n > 0; n--) {
                String label = pick(LABELS);
                String value = pick("a", "b", "c");
                labels.add(
                        switch (random.nextInt(6)) {
                            case 0 -> label + "=" + value;
                            case 1 -> label + "==" + value;
                            case 2 -> label + "!=" + value;
                            case 3 -> label;
                            case 4 -> "!" + label;
                            default -> label + (random.nextBoolean() ? " in (" : " notin (") + value + ")";
                        });
            }
            List<String> fields = new ArrayList<>();
            for (int n = random.nextInt(3); n > 0; n--) {
                String field = pick("metadata.name", "metadata.namespace", "name");
                String value = pick("p", "q", "a");
                fields.add(random.nextBoolean() ? field + "=" + value : field + "!=" + value);
            }
            String path = "/api/v1/" + (random.nextBoolean() ? "namespaces/" + pick("a", "b") + "/" : "") + "pods?"
                    + "labelSelector=" + URLEncoder.encode(String.join(",", labels), StandardCharsets.UTF_8)
                    + "&fieldSelector=" + URLEncoder.encode(String.join(",", fields), StandardCharsets.UTF_8);
            AttributeSet query = fabric8.fromPath(path);
            StoreQuery ours = StoreQuery.of(query);
            for (int k = 0; k < 10; k++) {
                AttributeSet key = randomPod();
                boolean expected = key.matches(query);
                assertThat(ours.matches(StoreKey.of(key)))
                        .as("%s matches %s", key, path)
                        .isEqualTo(expected);
                matched += expected ? 1 : 0;
            }
        }
        assertThat(matched).isPositive();
    }

    /** A pod's key as fabric8 keys it: its name and namespace twice, its labels, its version and plural. */
    private AttributeSet randomPod() {
        String name = pick("p", "q");
        String namespace = pick("a", "b");
        List<Attribute> attributes = new ArrayList<>(List.of(
                new Attribute("version", "v1"),
                new Attribute("plural", "pods"),
                new Attribute("name", name),
                new Attribute("metadata.name", name),
                new Attribute("namespace", namespace),
                new Attribute("metadata.namespace", namespace)));
        for (String label : LABELS) {
            if (random.nextBoolean()) {
                attributes.add(new Attribute("labels:" + label, pick("a", "b", "c")));
            }
        }
        return new AttributeSet(attributes);
    }

    /** A stored key: a pod's shape, values from a small pool (some {@code *}, empty or null), now and then two. */
    private AttributeSet randomKey() {
        Map<Key, Attribute> attributes = new HashMap<>();
        for (String name : new String[] {"api", "version", "plural", "namespace", "name", "metadata.name"}) {
            if (random.nextInt(5) > 0) {
                put(attributes, name, name.equals("plural") ? pick(PLURALS) : pick(VALUES));
            }
        }
        for (String label : LABELS) {
            if (random.nextBoolean()) {
                put(attributes, "labels:" + label, pick(VALUES));
            }
        }
        if (random.nextInt(40) == 0) {
            Key key = new Key("labels:" + pick(LABELS));
            attributes.put(
                    key, new Attribute(key, List.of(new Value(pick(VALUES)), new Value("b")), AttributeType.WITH));
        }
        if (random.nextInt(60) == 0) {
            Key key = new Key("labels:" + pick(LABELS));
            attributes.put(key, new Attribute(key, List.of(), AttributeType.WITH));
        }
        return new AttributeSet(attributes);
    }

    /**
     * A query: up to four requirements of any type, on the key's attributes and on absent ones,
     * with one value, now and then none to three.
     */
    private AttributeSet randomQuery() {
        Map<Key, Attribute> attributes = new HashMap<>();
        if (random.nextBoolean()) {
            put(attributes, "plural", pick(PLURALS));
        }
        for (int n = random.nextInt(4); n > 0; n--) {
            String name = random.nextInt(3) == 0
                    ? pick("api", "version", "namespace", "name", "metadata.name", "absent")
                    : "labels:" + pick(LABELS);
            List<Value> values = new ArrayList<>();
            for (int v = random.nextInt(10) == 0 ? random.nextInt(4) : 1; v > 0; v--) {
                values.add(new Value(pick(VALUES)));
            }
            AttributeType type = AttributeType.values()[random.nextInt(AttributeType.values().length)];
            Key key = new Key(name);
            attributes.put(key, new Attribute(key, values, type));
        }
        return new AttributeSet(attributes);
    }

    private static void put(Map<Key, Attribute> attributes, String name, String value) {
        Key key = new Key(name);
        attributes.put(key, new Attribute(key, new Value(value)));
    }

    /** What fabric8's index read of a query's attribute was: its one value where it requires one (equality). */
    private static String required(AttributeSet query, String name) {
        Attribute attribute = query.getAttribute(name);
        return attribute == null
                        || attribute.getType() != AttributeType.WITH
                        || attribute.getValues().size() != 1
                ? null
                : attribute.getValues().get(0).toString();
    }

    private static String first(AttributeSet query, String name) {
        Attribute attribute = query.getAttribute(name);
        return attribute == null || attribute.getValues().isEmpty()
                ? null
                : String.valueOf(attribute.getValues().get(0));
    }

    /** The answer, or the class of what it threw (fabric8 refuses in and notin on a key of two values). */
    private static Object outcome(BooleanSupplier match) {
        try {
            return match.getAsBoolean();
        } catch (RuntimeException e) {
            return e.getClass();
        }
    }

    @SafeVarargs
    private <T> T pick(T... choices) {
        return choices[random.nextInt(choices.length)];
    }
}
