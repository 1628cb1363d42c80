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
            String frac = String.format("%03d", rest).replaceAll("0+$", "");
            b.append('.').append(frac);
        }
        return b.append('s').toString();
    }
}
