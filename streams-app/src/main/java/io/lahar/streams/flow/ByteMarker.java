package io.lahar.streams.flow;

import java.util.Arrays;

/**
 * Whether a record's bytes contain a fixed byte string (Horspool's search: it compares the window's
 * last byte and moves on by up to the marker's length when that byte does not occur in it, where a
 * byte-by-byte scan compares every position). The rejection re-key runs it on every command
 * result, looking for the flow engine's sender, and finds it in few.
 */
final class ByteMarker {

    private final byte[] needle;
    /** For each byte value, how far the window may move when its last byte is that value. */
    private final int[] shift = new int[256];

    ByteMarker(byte[] needle) {
        if (needle.length == 0) {
            throw new IllegalArgumentException("marker: must not be empty");
        }
        this.needle = needle.clone();
        Arrays.fill(shift, needle.length);
        for (int i = 0; i < needle.length - 1; i++) {
            shift[needle[i] & 0xff] = needle.length - 1 - i;
        }
    }

    boolean in(byte[] haystack) {
        int last = needle.length - 1;
        int end = haystack.length - needle.length;
        int at = 0;
        while (at <= end) {
            byte b = haystack[at + last];
            if (b == needle[last] && Arrays.equals(haystack, at, at + last, needle, 0, last)) {
                return true;
            }
            at += shift[b & 0xff];
        }
        return false;
    }
}
