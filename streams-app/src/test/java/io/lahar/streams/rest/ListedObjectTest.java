package io.lahar.streams.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ListedObjectTest {

    record Row(String namespace, String name) implements ListedObject {}

    private static final List<Row> ROWS = List.of(new Row("b", "x"), new Row("a", "y"), new Row("a", "x"));

    @Test
    void aBlankNamespaceKeepsEveryRowAndANamedOneOnlyItsOwn() {
        assertThat(ROWS.stream().filter(ListedObject.inNamespace(null))).hasSize(3);
        assertThat(ROWS.stream().filter(ListedObject.inNamespace(" "))).hasSize(3);
        assertThat(ROWS.stream().filter(ListedObject.inNamespace("a")))
                .containsExactly(new Row("a", "y"), new Row("a", "x"));
    }

    @Test
    void rowsSortByNamespaceThenName() {
        assertThat(ROWS.stream().sorted(ListedObject.order()))
                .containsExactly(new Row("a", "x"), new Row("a", "y"), new Row("b", "x"));
    }
}
