package io.lahar.core.job;

/** Formats milliseconds as Go's time.Duration.String does ("1h2m3.5s", "0s"). */
final class GoDurations {

    private GoDurations() {
    }

    static String format(long millis) {
        if (millis == 0) {
            return "0s";
        }
        StringBuilder b = new StringBuilder();
        long ms = Math.abs(millis);
        if (millis < 0) {
            b.append('-');
        }
        if (ms < 1000) {
            return b.append(ms).append("ms").toString();
        }
        long h = ms / 3_600_000;
        long m = (ms / 60_000) % 60;
        long s = (ms / 1000) % 60;
        long rest = ms % 1000;
        if (h > 0) {
            b.append(h).append('h');
        }
        if (h > 0 || m > 0) {
            b.append(m).append('m');
        }
        b.append(s);
        if (rest > 0) {
            // The milliseconds as three digits without their trailing zeros (".5", ".25", ".125"); by hand,
            // not String.format and a regex: a running job's status carries this on every pod event.
            char[] digits = {(char) ('0' + rest / 100), (char) ('0' + rest / 10 % 10), (char) ('0' + rest % 10)};
            int length = 3;
            while (digits[length - 1] == '0') {
                length--;
            }
            b.append('.').append(digits, 0, length);
        }
        return b.append('s').toString();
    }
}
