package io.lahar.core.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LruMapTest {

    @Test
    void pastItsCapacityTheLeastRecentlyUsedEntryGoes() {
        LruMap<String, Integer> map = new LruMap<>(2);
        map.put("a", 1);
        map.put("b", 2);
        map.get("a"); // a read makes "a" recent: "b" is now the eldest
        map.put("c", 3);
        assertThat(map).containsOnlyKeys("a", "c");
    }

    @Test
    void aCapacityBelowOneIsRefused() {
        assertThatThrownBy(() -> new LruMap<String, Integer>(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was 0");
    }
}
