package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StoreEventTest {

    @Test
    void anObjectsKeyIsItsNamespaceAndNameReadOnceForEveryTypeItIsSentAs() {
        StoreEvent event = new StoreEvent("MODIFIED", "{\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\"}}", null);
        String key = event.objectKey();
        assertThat(key).isEqualTo("ns/p");
        assertThat(event.objectKey()).isSameAs(key);
        assertThat(event.as("ADDED").objectKey()).isSameAs(key);
        assertThat(new StoreEvent("ADDED", "{\"metadata\":{\"name\":\"node-0\"}}", null).objectKey())
                .isEqualTo("/node-0");
        assertThat(new StoreEvent("ADDED", "{}", null).objectKey()).isEqualTo("/");
    }
}
