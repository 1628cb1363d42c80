package io.lahar.streams.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ByteMarkerTest {

    private static final byte[] ANNOTATION = "volcano.sh/createdByJobFlow".getBytes(StandardCharsets.UTF_8);

    @Test
    void findsTheMarkerWhereverItIs() {
        ByteMarker marker = new ByteMarker(ANNOTATION);
        assertTrue(marker.in(ANNOTATION));
        assertTrue(marker.in(bytes("{\"volcano.sh/createdByJobFlow\":\"ns.flow\"}")));
        assertTrue(marker.in(bytes("xxxxvolcano.sh/createdByJobFlow")));
        assertTrue(marker.in(bytes("volcano.sh/createdByJobFlowxxxx")));
        assertFalse(marker.in(bytes("volcano.sh/createdByJobFlo")), "shorter than the marker");
        assertFalse(marker.in(bytes("volcano.sh/createdByJobFlaw")));
        assertFalse(marker.in(bytes("olcano.sh/createdByJobFlow")));
        assertFalse(marker.in(new byte[0]));
    }

    @Test
    void agreesWithAPlainScanOnRandomBytes() {
        Random random = new Random(7);
        for (int run = 0; run < 20_000; run++) {
            // A small alphabet, high bytes included, so near misses and repeats are frequent.
            byte[] alphabet = {'a', 'b', (byte) 0x80, (byte) 0xff};
            byte[] needle = randomBytes(random, alphabet, 1 + random.nextInt(6));
            byte[] haystack = randomBytes(random, alphabet, random.nextInt(40));
            if (random.nextInt(3) == 0 && haystack.length >= needle.length) {
                System.arraycopy(
                        needle, 0, haystack, random.nextInt(haystack.length - needle.length + 1), needle.length);
            }
            assertEquals(
                    plainScan(haystack, needle),
                    new ByteMarker(needle).in(haystack),
                    () -> "needle " + java.util.Arrays.toString(needle) + " in " + java.util.Arrays.toString(haystack));
        }
    }

    @Test
    void anEmptyMarkerIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ByteMarker(new byte[0]));
    }

    private static byte[] randomBytes(Random random, byte[] alphabet, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = alphabet[random.nextInt(alphabet.length)];
        }
        return out;
    }

    private static boolean plainScan(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
