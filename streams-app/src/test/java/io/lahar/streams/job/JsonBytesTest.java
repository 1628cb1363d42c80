package io.lahar.streams.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.core.api.Manifests;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link JsonBytes} writes what Jackson's generator writes: separators, escapes, numbers. */
class JsonBytesTest {

    private static final ObjectMapper JSON = Manifests.jsonMapper();

    private static final List<String> STRINGS = List.of(
            "",
            "plain ascii",
            "quote \" and backslash \\",
            "tab\tnew\nline\r",
            "control \u0001\u001f and del \u007f",
            "slash / and <html>&",
            "caf\u00e9 \u4e2d\u6587",
            "emoji \ud83d\ude80 end",
            "\u2028 line separator",
            "ends with escape \n");

    @Test
    void stringsAreQuotedAndEscapedAsJacksonDoes() throws Exception {
        for (String s : STRINGS) {
            JsonBytes out = new JsonBytes();
            out.value(s);
            assertThat(new String(out.toByteArray(), StandardCharsets.UTF_8))
                    .as(s)
                    .isEqualTo(JSON.writeValueAsString(s));
        }
    }

    @Test
    void nestedObjectsArraysAndNumbersAreSeparatedAsJacksonSeparatesThem() throws Exception {
        Map<String, Object> expected = new LinkedHashMap<>();
        JsonBytes out = new JsonBytes();
        out.startObject();
        long[] longs = {0, -1, 42, Long.MIN_VALUE, Long.MAX_VALUE};
        for (int i = 0; i < longs.length; i++) {
            out.field(JsonBytes.name("l" + i));
            out.value(longs[i]);
            expected.put("l" + i, longs[i]);
        }
        out.field("ints \"quoted\" key");
        out.startArray();
        List<Object> ints = new ArrayList<>();
        for (int n : new int[] {Integer.MIN_VALUE, -7, 0, 9, 10, 99_999, Integer.MAX_VALUE}) {
            out.value(n);
            ints.add(n);
        }
        out.startObject();
        out.endObject();
        ints.add(Map.of());
        out.startArray();
        out.endArray();
        ints.add(List.of());
        out.nullValue();
        ints.add(null);
        out.value(true);
        ints.add(true);
        out.rawValue("{\"raw\":[1,2]}".getBytes(StandardCharsets.UTF_8));
        ints.add(Map.of("raw", List.of(1, 2)));
        out.endArray();
        expected.put("ints \"quoted\" key", ints);
        out.field(JsonBytes.name("strings"));
        out.startArray();
        for (String s : STRINGS) {
            out.value(s);
        }
        out.endArray();
        expected.put("strings", STRINGS);
        out.field(JsonBytes.name("flag"));
        out.value(false);
        expected.put("flag", false);
        out.endObject();

        assertThat(new String(out.toByteArray(), StandardCharsets.UTF_8)).isEqualTo(JSON.writeValueAsString(expected));
    }

    @Test
    void theBufferGrowsAndIsReusedAfterAReset() throws Exception {
        JsonBytes out = new JsonBytes();
        String big = "x".repeat(40_000) + "\u00e9";
        out.value(big);
        assertThat(new String(out.toByteArray(), StandardCharsets.UTF_8)).isEqualTo(JSON.writeValueAsString(big));
        out.reset();
        out.value(1);
        assertThat(out.toByteArray()).isEqualTo("1".getBytes(StandardCharsets.US_ASCII));
        assertThat(out.size()).isEqualTo(1);
    }
}
