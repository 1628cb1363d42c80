package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SelectorsTest {

    private static final JsonNode POD = CrudStore.parse("""
            {"metadata":{"name":"p","namespace":"ns","labels":{"app":"web","tier":"2"}},
             "spec":{"schedulerName":"volcano"},"status":{"phase":"Running"}}
            """);

    @Test
    void setBasedLabelRequirements() {
        assertThat(select("labelSelector", "app in (web, db)")).isTrue();
        assertThat(select("labelSelector", "app notin (web,db)")).isFalse();
        assertThat(select("labelSelector", "missing notin (x)")).isTrue();
        assertThat(select("labelSelector", "app,!missing")).isTrue();
        assertThat(select("labelSelector", "!app")).isFalse();
        assertThat(select("labelSelector", "app=web,tier!=3,tier>1")).isTrue();
        assertThat(select("labelSelector", "tier<2")).isFalse();
        assertThat(select("labelSelector", "missing!=x")).isTrue();
    }

    @Test
    void fieldRequirementsReadAnyPathAndMissingIsEmpty() {
        assertThat(select("fieldSelector", "spec.nodeName=")).isTrue();
        assertThat(select("fieldSelector", "spec.nodeName=node-0")).isFalse();
        assertThat(select("fieldSelector", "status.phase!=Succeeded,metadata.namespace=ns"))
                .isTrue();
        assertThat(select("fieldSelector", "spec.schedulerName==volcano,metadata.name=p"))
                .isTrue();
    }

    @Test
    void bothSelectorsMustMatch() {
        String query = "labelSelector=app%3Dweb&fieldSelector=status.phase%3DPending";
        assertThat(Selectors.fromQuery(query).orElseThrow().matches(POD)).isFalse();
    }

    @Test
    void aLabelSelectorObjectAsWebhooksWriteIt() {
        assertThat(labelSelector("{}")).isTrue();
        assertThat(labelSelector("{\"matchLabels\": {\"app\": \"web\"}}")).isTrue();
        assertThat(labelSelector("{\"matchLabels\": {\"app\": \"db\"}}")).isFalse();
        assertThat(labelSelector(
                        "{\"matchExpressions\": [{\"key\": \"tier\", \"operator\": \"In\", \"values\": [\"2\", \"3\"]},"
                                + " {\"key\": \"absent\", \"operator\": \"NotIn\", \"values\": [\"x\"]},"
                                + " {\"key\": \"absent\", \"operator\": \"DoesNotExist\"},"
                                + " {\"key\": \"app\", \"operator\": \"Exists\"}]}"))
                .isTrue();
        assertThat(labelSelector(
                        "{\"matchExpressions\": [{\"key\": \"tier\", \"operator\": \"NotIn\", \"values\": [\"2\"]}]}"))
                .isFalse();
        assertThatThrownBy(() -> labelSelector("{\"matchExpressions\": [{\"key\": \"a\", \"operator\": \"Gt\"}]}"))
                .hasMessage("\"Gt\" is not a valid label selector operator");
    }

    private static boolean labelSelector(String json) {
        return Selectors.ofLabelSelector(CrudStore.parse(json)).matches(POD);
    }

    @Test
    void noSelectorsMeansNone() {
        assertThat(Selectors.fromQuery("watch=true&resourceVersion=3")).isEmpty();
        assertThat(Selectors.fromQuery(null)).isEmpty();
    }

    @Test
    void theStoreGetsTheQueryWithoutSelectors() {
        assertThat(Selectors.withoutSelectors("labelSelector=a%3Db&watch=true&fieldSelector=x%3Dy&timeoutSeconds=5"))
                .isEqualTo("?watch=true&timeoutSeconds=5");
        assertThat(Selectors.withoutSelectors("labelSelector=a")).isEmpty();
    }

    @Test
    void badRequirementsAreAllNamed() {
        assertThatThrownBy(() -> Selectors.fromQuery(
                        "labelSelector=" + enc("app in web,=x") + "&fieldSelector=" + enc("status.phase")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("labelSelector: \"app in web\" is not a label requirement; "
                        + "labelSelector: \"=x\" is not a label requirement; "
                        + "fieldSelector: \"status.phase\" is not a field requirement (path=value or path!=value)");
    }

    private static boolean select(String param, String selector) {
        return Selectors.fromQuery(param + "=" + enc(selector)).orElseThrow().matches(POD);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
