package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A deleted object's JSON made from its stored text is the JSON its tree gave, written out with
 * the deletion's version in place (as the store made it before), whatever comes before that field:
 * other resourceVersion fields deeper down or in strings, escapes, other scripts, metadata first or
 * last; and none when the text has no such string field to replace.
 */
class DeletedJsonTest {

    @Test
    void isTheTreeWrittenOutWithTheDeletionsVersion() {
        List<String> objects = List.of("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default","resourceVersion":"41","uid":"u"},"spec":{}}""", """
                {"metadata":{"resourceVersion":"7"},"kind":"ConfigMap","apiVersion":"v1"}""", """
                {"apiVersion":"lahar.io/v1","kind":"X","spec":{"metadata":{"resourceVersion":"41"},"ref":{"resourceVersion":"41"}},
                 "status":["resourceVersion",{"metadata":{"resourceVersion":"41"}}],
                 "metadata":{"annotations":{"a":"{\\"resourceVersion\\":\\"41\\"}","b":"é ✓ \\u0000 \\\\\\" \\ud83d\\ude00"},
                  "labels":{"resourceVersion":"41"},"name":"x","managedFields":[{"resourceVersion":"41"}],
                  "resourceVersion":"41","uid":"u"}}""", """
                {"kind":"Pod","metadata":{"name":"n","resourceVersion":"1\\"2","finalizers":["f"]},"status":{"phase":"Running"}}""");
        for (String text : objects) {
            JsonNode tree = CrudStore.parse(text);
            String stored = Serialization.asJson(tree);

            assertThat(DeletedJson.withVersion(stored, "1234"))
                    .isEqualTo(Serialization.asJson(withVersion(tree, "1234")));
        }
    }

    @Test
    void isNoneWhenTheTextHasNoVersionToReplace() {
        assertThat(DeletedJson.withVersion("{\"metadata\":{\"name\":\"n\"},\"spec\":{}}", "5"))
                .isNull();
        assertThat(DeletedJson.withVersion("{\"metadata\":{\"resourceVersion\":41}}", "5"))
                .isNull();
        assertThat(DeletedJson.withVersion("{\"metadata\":[],\"spec\":{}}", "5"))
                .isNull();
        assertThat(DeletedJson.withVersion("{\"spec\":{\"metadata\":{\"resourceVersion\":\"4\"}}}", "5"))
                .isNull();
        assertThat(DeletedJson.withVersion("[]", "5")).isNull();
        assertThat(DeletedJson.withVersion("{\"metadata\":{\"resourceVersion\":\"4", "5"))
                .isNull();
    }

    /** What the store wrote out before: the tree with the version put in its metadata. */
    private static JsonNode withVersion(JsonNode stored, String version) {
        ObjectNode metadata = JsonNodeFactory.instance.objectNode();
        metadata.setAll((ObjectNode) stored.get("metadata"));
        metadata.put("resourceVersion", version);
        ObjectNode gone = JsonNodeFactory.instance.objectNode();
        gone.setAll((ObjectNode) stored);
        gone.set("metadata", metadata);
        return gone;
    }
}
