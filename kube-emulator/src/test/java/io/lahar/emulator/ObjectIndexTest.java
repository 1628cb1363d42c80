package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.AttributeType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The index answers every query as a scan of fabric8's store answered it: every key that matches,
 * in the order the objects were last written, over objects written, rewritten and removed at
 * random; objects with no plural or no name (which no index finds) come after the others where a
 * query names a plural, as they always have.
 */
class ObjectIndexTest {

    private final Random random = new Random(59);

    @Test
    void answersAsAScanOfTheStoreInTheOrderLastWritten() {
        ObjectIndex index = new ObjectIndex();
        Map<AttributeSet, String> scanned = new LinkedHashMap<>();
        List<AttributeSet> written = new ArrayList<>();
        int found = 0;
        for (int step = 0; step < 4_000; step++) {
            if (!written.isEmpty() && random.nextInt(4) == 0) {
                AttributeSet key = written.get(random.nextInt(written.size()));
                if (random.nextBoolean()) {
                    scanned.remove(key);
                    index.remove(index.keyOf(AttributeSet.merge(key)));
                } else {
                    String json = "{\"v\":" + step + "}";
                    scanned.remove(key);
                    scanned.put(key, json);
                    index.put(index.keyOf(key), json);
                }
            } else {
                AttributeSet key = randomKey();
                String json = "{\"v\":" + step + "}";
                scanned.remove(key);
                scanned.put(key, json);
                index.put(StoreKey.of(key), json);
                written.add(key);
            }
            AttributeSet query = randomQuery();
            List<String> expected = new ArrayList<>();
            List<String> unindexed = new ArrayList<>();
            boolean indexed = query.getAttribute("plural") != null;
            scanned.forEach((key, json) -> {
                if (key.matches(query)) {
                    boolean findable = key.containsKey("plural") && key.containsKey("name");
                    (findable || !indexed ? expected : unindexed).add(json);
                }
            });
            expected.addAll(unindexed);
            List<String> actual = index.matching(StoreQuery.of(query)).stream()
                    .map(ObjectIndex.Entry::json)
                    .toList();
            assertThat(actual).as("%s", query).isEqualTo(expected);
            found += expected.size();
        }
        assertThat(index.size()).isEqualTo(scanned.size());
        assertThat(found).isGreaterThan(1_000);
    }

    @Test
    void aQueryForOneNamedObjectLooksAtThatObjectOnly() {
        ObjectIndex index = new ObjectIndex();
        for (int i = 0; i < 1_000; i++) {
            index.put(StoreKey.of(new ResourcePath(null, "v1", "pods", "ns" + i % 3, "p" + i).attributes()), "{}");
        }
        assertThat(index.matching(new ResourcePath(null, "v1", "pods", "ns1", "p7").query()))
                .hasSize(1);
        assertThat(index.lastExamined()).isEqualTo(1);
        assertThat(index.matching(new ResourcePath(null, "v1", "pods", "ns2", "p7").query()))
                .isEmpty();
        assertThat(index.lastExamined()).isEqualTo(1);
    }

    /** Keys of pods and jobs in two namespaces and groups, some labelled, some without a plural, name or namespace. */
    private AttributeSet randomKey() {
        List<Attribute> attributes = new ArrayList<>();
        String plural = pick("pods", "jobs", null);
        if (plural != null) {
            attributes.add(new Attribute("plural", plural));
        }
        if (random.nextInt(4) == 0) {
            attributes.add(new Attribute("api", pick("batch", "batch.volcano.sh")));
        }
        attributes.add(new Attribute("version", pick("v1", "v1alpha1")));
        String name = random.nextInt(10) == 0 ? null : "o" + random.nextInt(30);
        if (name != null) {
            attributes.add(new Attribute("name", name));
            attributes.add(new Attribute("metadata.name", name));
        }
        if (random.nextInt(5) > 0) {
            String namespace = pick("a", "b");
            attributes.add(new Attribute("namespace", namespace));
            attributes.add(new Attribute("metadata.namespace", namespace));
        }
        if (random.nextBoolean()) {
            attributes.add(new Attribute("labels:app", pick("x", "y")));
        }
        return new AttributeSet(attributes);
    }

    /** Queries as requests make them: a plural (or none), a namespace, a name, a label requirement. */
    private AttributeSet randomQuery() {
        List<Attribute> attributes = new ArrayList<>();
        String plural = pick("pods", "jobs", null);
        if (plural != null) {
            attributes.add(new Attribute("plural", plural));
        }
        if (random.nextInt(3) == 0) {
            attributes.add(new Attribute("version", pick("v1", "v1alpha1")));
        }
        if (random.nextBoolean()) {
            attributes.add(new Attribute("namespace", pick("a", "b")));
        }
        if (random.nextBoolean()) {
            attributes.add(new Attribute("name", "o" + random.nextInt(30)));
        }
        switch (random.nextInt(5)) {
            case 0 -> attributes.add(new Attribute("labels:app", "x"));
            case 1 -> attributes.add(new Attribute("labels:app", "x", AttributeType.WITHOUT));
            case 2 -> attributes.add(new Attribute("labels:app", "", AttributeType.NOT_EXISTS));
            default -> {}
        }
        return new AttributeSet(attributes);
    }

    @SafeVarargs
    private <T> T pick(T... choices) {
        return choices[random.nextInt(choices.length)];
    }
}
